import "server-only";
import type { AuditFilter } from "@/lib/schemas/audit";
import type { Queryable } from "@/server/db/engine";
import { listAudit } from "./list";
import { pagedCsvRows } from "@/lib/csv";

/** The audit trail CSV export's rows (written out and itself audited by server/http csvRoute). */
export const AUDIT_CSV_COLUMNS = [
  "Seq",
  "Time (UTC)",
  "Actor",
  "Role",
  "Action",
  "Target",
  "Outcome",
  "Error code",
  "Upstream request id",
  "Idempotency key",
  "Client IP",
  "User agent",
  "Channel",
  "Token",
  "Input",
  "Hash",
];

/** Every entry matching the filter, newest first, read 500 at a time by keyset as the stream wants more. */
export function auditCsvRows(q: Queryable, filter: AuditFilter): AsyncGenerator<(string | number | null)[]> {
  return pagedCsvRows(
    (cursor) => listAudit(q, { ...filter, cursor, limit: 500 }),
    (r) => [
      r.seq,
      r.at.toISOString(),
      r.actorEmail,
      r.actorRole,
      r.action,
      r.target,
      r.outcome,
      r.errorCode,
      r.upstreamRequestId,
      r.idempotencyKey,
      r.clientIp,
      r.userAgent,
      r.channel,
      r.tokenId,
      r.input === null ? "" : JSON.stringify(r.input),
      r.hash,
    ],
  );
}
