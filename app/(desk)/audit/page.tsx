import type { Metadata } from "next";
import Link from "next/link";
import { AuditTable } from "@/components/audit/audit-table";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page";
import { auditListParams } from "@/lib/schemas/audit";
import { accountNumbers } from "@/server/accounts/directory";
import { listAudit, verifyAuditChain } from "@/server/audit/trail";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Audit trail" };

const link = "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100";

/** Thin page: permission, URL state, one keyset page of the trail read here; the client table navigates. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("audit:read");
  const search = await searchParams;
  const params = auditListParams.parse(search);
  const db = await getDb();
  // Verifying runs when asked (`verify=1`: from the last checkpoint on; `verify=full`: the whole trail), not table
  // state: any change of the table leaves it out.
  const verify = search.verify === "full" ? "full" : search.verify === "1" ? "incremental" : undefined;
  const [page, chain] = await Promise.all([
    listAudit(db.engine, { ...auditListParams.filters(params), sort: params.sort, cursor: params.cursor, limit: params.size }),
    verify ? verifyAuditChain(db.engine, { mode: verify }) : undefined,
  ]);
  const query = auditListParams.toQuery(params);
  const targetAccount = (target: string | null) => (/^(account|order):/.test(target ?? "") ? target!.split(":")[1] : undefined);
  const numbers = await accountNumbers(
    db.engine,
    page.rows.map((r) => targetAccount(r.target) ?? ""),
  );
  const rows = page.rows.map(({ prevHash: _prevHash, hash: _hash, actorId: _actorId, at, ...row }) => ({
    ...row,
    at: at.toISOString(),
    targetAccountNumber: numbers.get(targetAccount(row.target) ?? ""),
  }));

  return (
    <>
      <PageHeader
        title="Audit trail"
        description="Every staff action, sign-in and sign-out. Entries cannot be changed or removed."
        actions={
          <>
            <a href={`/api/audit/export${auditListParams.filterQuery(params)}`} className={link} download>
              Export CSV
            </a>
            {!chain ? (
              <Link href={`/audit${query ? `${query}&` : "?"}verify=1`} className={link}>
                Verify hash chain
              </Link>
            ) : (
              <>
                <span data-testid="chain-status" data-mode={chain.mode} data-checked={chain.entries}>
                  {chain.ok ? (
                    <Badge tone="green">
                      Hash chain intact · {chain.entries} {chain.entries === 1 ? "entry" : "entries"} checked
                      {chain.mode === "full"
                        ? " (full)"
                        : chain.fromSeq
                          ? ` (incremental, after checkpoint #${chain.fromSeq})`
                          : " (incremental, from the start)"}
                    </Badge>
                  ) : (
                    <Badge tone="red">
                      Chain broken at entry #{chain.brokenSeq}: {chain.reason} ({chain.mode}, {chain.entries} checked)
                    </Badge>
                  )}
                </span>
                {chain.mode === "incremental" ? (
                  <Link
                    href={`/audit${query ? `${query}&` : "?"}verify=full`}
                    className={link}
                    title="Walk the whole trail from its first entry"
                  >
                    Full check
                  </Link>
                ) : null}
              </>
            )}
          </>
        }
      />
      <AuditTable page={{ rows, nextCursor: page.nextCursor }} />
    </>
  );
}
