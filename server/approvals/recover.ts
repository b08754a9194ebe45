import "server-only";
import { selectStuckExecutions, settleExecution } from "./queries/requests";
import { appendAudit } from "@/server/audit/trail";
import { broker, type BrokerClient } from "@/server/broker";
import type { AppDb } from "@/server/db";
import { logger } from "@/server/log";
import { approvableOperation } from "./registry";

/** An execution that has not written its outcome after this long has lost its process (a call takes a minute at most). */
export const STUCK_AFTER_MS = 10 * 60_000;

export const NOT_SENT_MESSAGE =
  "The execution stopped before the upstream received the request, which it does not know: nothing was sent. Ask again with a new request.";
export const UNKNOWN_MESSAGE = "The execution stopped and its outcome could not be checked upstream: check the target before asking again.";

/**
 * Settles requests left `executing` by a process that stopped mid-execution, by asking the upstream whether it knows
 * the request (its own client request id), never by sending it again: known → executed (with the upstream's status),
 * unknown → failed, nothing sent; an operation with nothing to look up by → failed, outcome unknown. Each settled
 * request is audited once (the UPDATE only takes a request still executing).
 */
export async function recoverStuckExecutions(
  db: AppDb,
  o: { olderThanMs?: number; now?: Date; client?: BrokerClient } = {},
): Promise<number> {
  const before = new Date((o.now ?? new Date()).getTime() - (o.olderThanMs ?? STUCK_AFTER_MS));
  const rows = await selectStuckExecutions(db.engine, before);
  let settled = 0;
  for (const r of rows) {
    const op = approvableOperation(r.action);
    const parsed = op?.schema.safeParse(r.payload);
    let found: { sent: true; status?: string } | { sent: false } | undefined;
    try {
      found = op?.lookup && parsed?.success ? await op.lookup(parsed.data, o.client ?? broker()) : undefined;
    } catch (error) {
      // The upstream could not say: try again at the next sweep.
      logger.warn({ err: error, approvalId: r.id }, "checking a stopped execution upstream failed");
      continue;
    }
    const executed = found?.sent === true;
    const error = executed ? null : found ? NOT_SENT_MESSAGE : UNKNOWN_MESSAGE;
    const updated = await settleExecution(
      db.engine,
      r.id,
      executed ? "executed" : "failed",
      error,
      executed ? { recovered: true, upstreamStatus: found && "status" in found ? (found.status ?? null) : null } : null,
    );
    if (!updated) continue;
    settled += 1;
    await appendAudit(db, {
      action: "approvals.recover",
      target: `approval:${r.id}`,
      outcome: executed ? "success" : "failure",
      errorCode: executed ? undefined : found ? "NOT_SENT" : "OUTCOME_UNKNOWN",
      input: { approvalId: r.id, action: r.action, target: r.target, maker: r.maker_email, upstream: found ?? "not checked" },
    });
    if (!executed && found && op?.onStatus && parsed?.success) {
      await op.onStatus(parsed.data, "FAILED", { approvalId: r.id, makerEmail: r.maker_email, ctx: { db }, reason: NOT_SENT_MESSAGE });
    }
  }
  return settled;
}
