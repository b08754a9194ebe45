import "server-only";
import type { AuditFilter } from "@/lib/schemas/audit";
import type { Queryable } from "@/server/db/engine";
import { listAudit } from "./list";

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
  "Input",
  "Hash",
];

/** Every entry matching the filter, newest first, read 500 at a time by keyset as the stream wants more. */
export async function* auditCsvRows(q: Queryable, filter: AuditFilter): AsyncGenerator<(string | number | null)[]> {
  let cursor: string | undefined;
  do {
    const { rows, nextCursor } = await listAudit(q, { ...filter, cursor, limit: 500 });
    for (const r of rows) {
      yield [
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
        r.input === null ? "" : JSON.stringify(r.input),
        r.hash,
      ];
    }
    cursor = nextCursor;
  } while (cursor);
}
