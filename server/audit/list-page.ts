import "server-only";
import type { AuditListParams, AuditListRow } from "@/lib/schemas/audit";
import { accountNumbers } from "@/server/accounts/directory";
import type { Queryable } from "@/server/db/engine";
import { auditListParams } from "@/lib/schemas/audit";
import { listAudit } from "./list";

/** The account an entry's target names (an account or one of its orders), to name it by its number. */
export const targetAccount = (target: string | null) => (/^(account|order):/.test(target ?? "") ? target!.split(":")[1] : undefined);

/** One page of the trail as the table shows it (the page's prefetch and GET /api/audit): no hashes, account numbers named. */
export async function auditListPage(q: Queryable, params: AuditListParams): Promise<{ rows: AuditListRow[]; nextCursor?: string }> {
  const page = await listAudit(q, { ...auditListParams.filters(params), sort: params.sort, cursor: params.cursor, limit: params.size });
  const numbers = await accountNumbers(
    q,
    page.rows.map((r) => targetAccount(r.target) ?? ""),
  );
  const rows = page.rows.map(({ prevHash: _prevHash, hash: _hash, actorId: _actorId, at, ...row }) => ({
    ...row,
    at: at.toISOString(),
    targetAccountNumber: numbers.get(targetAccount(row.target) ?? ""),
  }));
  return { rows, nextCursor: page.nextCursor };
}
