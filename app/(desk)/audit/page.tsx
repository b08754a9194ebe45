import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { PageHeader, table } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { auditFilterQuery, auditFilterSchema } from "@/lib/schemas/audit";
import { listAudit, verifyAuditChain } from "@/server/audit/trail";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Audit trail" };



const OUTCOME_TONE = { success: "green", failure: "red", denied: "amber", held: "slate" } as const;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  await requirePermission("audit:read");
  const params = auditFilterSchema.parse(await searchParams);
  const db = await getDb();
    // Verifying walks the whole trail, so it runs when asked, not on every page view.
  const [{ rows, nextBefore }, chain] = await Promise.all([
    listAudit(db.engine, { ...params, limit: 50 }),
    params.verify ? verifyAuditChain(db.engine) : undefined,
  ]);
  const query = (extra: Record<string, string | number | undefined>) => `/audit?${auditFilterQuery(params, extra)}`;

  return (
    <>
      <PageHeader
        title="Audit trail"
        description="Every staff action, sign-in and sign-out. Entries cannot be changed or removed."
        actions={
          <>
            <a
              href={`/api/audit/export?${auditFilterQuery(params)}`}
              className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100"
              download
            >
              Export CSV
            </a>
            {!chain ? (
              <Link href={query({ before: params.before, verify: 1 })} className="rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100">
                Verify hash chain
              </Link>
            ) : (
              <span data-testid="chain-status">
                {chain.ok ? (
                  <Badge tone="green">Hash chain intact · {chain.entries} {chain.entries === 1 ? "entry" : "entries"}</Badge>
                ) : (
                  <Badge tone="red">
                    Chain broken at entry #{chain.brokenSeq}: {chain.reason}
                  </Badge>
                )}
              </span>
            )}
          </>
        }
      />
      <form className="mb-3 flex flex-wrap items-end gap-2 text-sm" role="search">
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          Action
          <input name="action" defaultValue={params.action} placeholder="e.g. staff.create" className="h-8 w-48 rounded border border-slate-300 px-2 text-sm font-normal" />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          Actor
          <input name="actor" defaultValue={params.actor} placeholder="email" className="h-8 w-56 rounded border border-slate-300 px-2 text-sm font-normal" />
        </label>
        <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
          Outcome
          <select name="outcome" defaultValue={params.outcome ?? ""} className="h-8 w-32 rounded border border-slate-300 px-2 text-sm font-normal">
            <option value="">Any</option>
            <option value="success">Success</option>
            <option value="failure">Failure</option>
            <option value="denied">Denied</option>
          </select>
        </label>
        <button type="submit" className="h-8 rounded bg-blue-700 px-3 text-white hover:bg-blue-800">
          Filter
        </button>
        <Link href="/audit" className="h-8 px-2 leading-8 text-slate-600 hover:underline">
          Clear
        </Link>
      </form>
      <div className={table.wrap}>
        <table className={table.table}>
          <thead>
            <tr>
              {["#", "Time", "Actor", "Action", "Target", "Outcome", "Upstream request · key", "Client", "Input"].map((h) => (
                <th key={h} className={h === "#" ? `${table.th} text-right` : table.th}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={9} className={table.empty}>
                  No audit entries match these filters.
                </td>
              </tr>
            ) : (
              rows.map((r) => (
                <tr key={r.seq} data-testid="audit-row">
                  <td className={`${table.td} num text-slate-500`}>{r.seq}</td>
                  <td className={`${table.td} text-xs whitespace-nowrap`}>{formatDateTime(r.at)}</td>
                  <td className={table.td}>
                    <div className="text-xs">{r.actorEmail ?? "—"}</div>
                    <div className="text-[11px] text-slate-500">{r.actorRole ?? ""}</div>
                  </td>
                  <td className={`${table.td} font-mono text-xs`}>{r.action}</td>
                  <td className={`${table.td} max-w-40 truncate font-mono text-xs`} title={r.target ?? undefined}>
                    {r.target ?? "—"}
                  </td>
                  <td className={table.td}>
                    <Badge tone={OUTCOME_TONE[r.outcome]}>{r.outcome}</Badge>
                    {r.errorCode ? <div className="mt-0.5 font-mono text-[11px] text-slate-500">{r.errorCode}</div> : null}
                  </td>
                  <td className={`${table.td} font-mono text-[11px]`}>
                    <div title="Upstream request id">{r.upstreamRequestId ?? "—"}</div>
                    {r.idempotencyKey ? <div className="text-slate-500" title="Idempotency key">{r.idempotencyKey}</div> : null}
                  </td>
                  <td className={`${table.td} max-w-36 text-[11px] text-slate-500`}>
                    <div>{r.clientIp ?? "—"}</div>
                    <div className="truncate" title={r.userAgent ?? undefined}>
                      {r.userAgent ?? ""}
                    </div>
                  </td>
                  <td className={`${table.td} text-xs`}>
                    {r.input === null ? (
                      "—"
                    ) : (
                      <details>
                        <summary className="cursor-pointer text-blue-700">View</summary>
                        <pre className="mt-1 max-w-md overflow-x-auto rounded bg-slate-50 p-2 text-[11px]">{JSON.stringify(r.input, null, 2)}</pre>
                      </details>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <nav className="mt-3 flex justify-between text-sm" aria-label="Pagination">
        {params.before ? (
          <Link href={query({ before: undefined })} className="text-blue-700 hover:underline">
            ← Newest
          </Link>
        ) : (
          <span />
        )}
        {nextBefore ? (
          <Link href={query({ before: nextBefore })} className="text-blue-700 hover:underline">
            Older entries →
          </Link>
        ) : null}
      </nav>
    </>
  );
}
