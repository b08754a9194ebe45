import type { Metadata } from "next";
import Link from "next/link";
import { listPage } from "@/app/(desk)/list-page";
import { auditList } from "@/components/audit/query-keys";
import { AuditTable } from "@/components/audit/audit-table";
import { Badge } from "@/components/ui/badge";
import { auditListParams } from "@/lib/schemas/audit";
import { auditListPage } from "@/server/audit/list-page";
import { verifyAuditChain } from "@/server/audit/verify";

export const metadata = { title: "Audit trail" } satisfies Metadata;

const link = "rounded border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-100";

/** The first page prefetched, and the hash chain verified when asked; the client table keeps it live. */
export default listPage(metadata, "audit:read", auditListParams, async (params, { db, search }) => {
  // Verifying runs when asked (`verify=1`: from the last checkpoint on; `verify=full`: the whole trail), not table
  // state: any change of the table leaves it out.
  const verify = search.verify === "full" ? "full" : search.verify === "1" ? "incremental" : undefined;
  const chain = verify ? await verifyAuditChain(db.engine, { mode: verify }) : undefined;
  const query = auditListParams.toQuery(params);
  return {
    description: "Every staff action, sign-in and sign-out. Entries cannot be changed or removed.",
    actions: !chain ? (
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
          <Link href={`/audit${query ? `${query}&` : "?"}verify=full`} className={link} title="Walk the whole trail from its first entry">
            Full check
          </Link>
        ) : null}
      </>
    ),
    prefetch: [{ queryKey: auditList.key(params), queryFn: () => auditListPage(db.engine, params) }],
    table: <AuditTable />,
  };
});
