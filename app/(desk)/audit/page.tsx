import type { Metadata } from "next";
import Link from "next/link";
import { AuditTable } from "@/components/audit/audit-table";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page";
import { auditListParams } from "@/lib/schemas/audit";
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
  // Verifying walks the whole trail, so it runs when asked (`verify=1`, not table state: any change of the table
  // leaves it out), not on every page view.
  const [page, chain] = await Promise.all([
    listAudit(db.engine, { ...auditListParams.filters(params), sort: params.sort, cursor: params.cursor, limit: params.size }),
    search.verify === "1" ? verifyAuditChain(db.engine) : undefined,
  ]);
  const query = auditListParams.toQuery(params);
  const rows = page.rows.map(({ prevHash: _prevHash, hash: _hash, actorId: _actorId, at, ...row }) => ({ ...row, at: at.toISOString() }));

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
      <AuditTable page={{ rows, nextCursor: page.nextCursor }} />
    </>
  );
}
