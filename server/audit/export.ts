import "server-only";
import { csvLine } from "@/lib/csv";
import type { AuditFilter } from "@/lib/schemas/audit";
import type { Queryable } from "@/server/db/engine";
import { listAudit } from "./trail";

const COLUMNS = ["Seq", "Time (UTC)", "Actor", "Role", "Action", "Target", "Outcome", "Error code", "Upstream request id", "Idempotency key", "Client IP", "User agent", "Input", "Hash"];

/** Every entry matching the filter, newest first, read 500 at a time by keyset and written out as it is read. */
export function auditCsvStream(q: Queryable, filter: AuditFilter): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let done = false;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(COLUMNS)));
    },
    async pull(controller) {
      if (done) return controller.close();
      try {
        const { rows, nextCursor } = await listAudit(q, { ...filter, cursor, limit: 500 });
        const text = rows
          .map((r) =>
            csvLine([r.seq, r.at.toISOString(), r.actorEmail, r.actorRole, r.action, r.target, r.outcome, r.errorCode,
              r.upstreamRequestId, r.idempotencyKey, r.clientIp, r.userAgent, r.input === null ? "" : JSON.stringify(r.input), r.hash]),
          )
          .join("");
        if (text) controller.enqueue(encoder.encode(text));
        cursor = nextCursor;
        done = !nextCursor;
        if (done) controller.close();
      } catch (error) {
        controller.error(error);
      }
    },
  });
}
