import type { Metadata } from "next";
import Link from "next/link";
import { AccountTimeline } from "@/components/timeline/account-timeline";
import { timelineParamsSchema } from "@/lib/schemas/account-timeline";
import { accountNumbers } from "@/server/accounts/directory";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { accountTimeline, readableKinds } from "@/server/timeline/account-timeline";

export const metadata: Metadata = { title: "Account timeline" };

/** The account's timeline: the desk's own records only (no upstream call beyond the layout's account lookup). */
export default async function AccountTimelinePage({
  params,
  searchParams,
}: {
  params: Promise<{ accountId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const staff = await requirePermission("accounts:read");
  const { accountId } = await params;
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const p = timelineParamsSchema.parse({ accountId, kinds: one(sp.kinds), cursor: one(sp.cursor) });
  const engine = (await getDb()).engine;
  const [page, numbers] = await Promise.all([
    accountTimeline(engine, { accountId, role: staff, kinds: p.kinds, cursor: p.cursor }),
    accountNumbers(engine, [accountId]),
  ]);
  const number = numbers.get(accountId);
  const detail = `/accounts/${encodeURIComponent(accountId)}`;
  return (
    <div className="flex flex-col gap-3">
      <div>
        <Link href={detail} prefetch={false} className="text-xs text-blue-700 hover:underline">
          ← Account
        </Link>
        <h1 className="mt-0.5 text-lg font-semibold text-slate-900">
          Timeline of <span className="font-mono">{number ?? accountId}</span>
          {number ? <span className="ml-2 font-mono text-xs font-normal text-slate-500">{accountId}</span> : null}
        </h1>
        <p className="text-sm text-slate-600">
          Everything the desk recorded about this account, newest first. Kinds your role cannot read are not shown.
        </p>
      </div>
      <AccountTimeline accountId={accountId} page={page} readable={readableKinds(staff, [])} selected={p.kinds} cursor={p.cursor} />
    </div>
  );
}
