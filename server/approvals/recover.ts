import "server-only";
import { AppError, NotFoundError } from "@/lib/errors";
import type { ApprovalStatus } from "@/lib/schemas/approvals";
import type { ActionContext } from "@/server/action-kit/define-action";
import { claimStuckExecutions, selectOldestExecuting, selectRequest, settleExecution } from "./queries/requests";
import { appendAudit } from "@/server/audit/trail";
import { broker, type BrokerClient } from "@/server/broker";
import type { AppDb } from "@/server/db";
import { notifyChange } from "@/server/notices/channel";
import { logger } from "@/server/log";
import { STUCK_AFTER_MS } from "./liveness";
import { approvableOperation } from "./registry";

export const NOT_SENT_MESSAGE =
  "The execution stopped before the upstream received the request, which it does not know: nothing was sent. Ask again with a new request.";
export const UNKNOWN_MESSAGE = "The execution stopped and its outcome could not be checked upstream: check the target before asking again.";

/**
 * When to look again for stopped executions: the moment the oldest one still executing would count as stopped
 * (its last sign of life plus the limit, a second after), or undefined when none executes. The minute job asks
 * this after its run, so a process that stops mid-execution is found within seconds of the limit, not at the
 * next minute.
 */
export async function nextStuckCheck(db: AppDb, o: { olderThanMs?: number; now?: Date } = {}): Promise<number | undefined> {
  const oldest = await selectOldestExecuting(db.engine);
  if (!oldest) return undefined;
  const due = oldest.getTime() + (o.olderThanMs ?? STUCK_AFTER_MS) + 1_000 - (o.now ?? new Date()).getTime();
  return Math.max(1, Math.ceil(due / 1_000));
}

/**
 * Settles requests left `executing` by a process that stopped mid-execution (no beat for STUCK_AFTER_MS), by asking
 * the upstream whether it knows the request (its own client request id), never by sending it again: known →
 * executed (with the upstream's status), unknown → failed, nothing sent; an operation with nothing to look up by →
 * failed, outcome unknown. Each is marked as being checked first (the page says since when); an upstream that cannot
 * answer leaves it so for the next minute's run; `onlyIfSent` settles only a request the upstream has. Each settled request is audited once (the UPDATE only takes a
 * request still executing), naming its maker and checker. The minute job runs it for all; an admin for `id`.
 */
export async function recoverStuckExecutions(
  db: AppDb,
  o: { olderThanMs?: number; now?: Date; client?: BrokerClient; id?: string; onlyIfSent?: boolean } = {},
): Promise<number> {
  const before = new Date((o.now ?? new Date()).getTime() - (o.olderThanMs ?? STUCK_AFTER_MS));
  const rows = await claimStuckExecutions(db.engine, before, o.id);
  if (rows.length) await notifyChange(db.engine, { topics: ["approval"], accounts: [] });
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
    // Asked right after a send whose outcome is unknown: the upstream may still be taking it, so "unknown" waits
    // for the run after this execution counts as stopped.
    if (!executed && o.onlyIfSent) continue;
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
      input: {
        approvalId: r.id,
        action: r.action,
        target: r.target,
        maker: r.maker_email,
        checker: r.checker_email,
        approvers: r.approver_emails,
        upstream: found ?? "not checked",
      },
    });
    if (!executed && found && op?.onStatus && parsed?.success) {
      await op.onStatus(parsed.data, "FAILED", { approvalId: r.id, makerEmail: r.maker_email, ctx: { db }, reason: NOT_SENT_MESSAGE });
    }
  }
  return settled;
}

/**
 * One request checked now (an admin's request): settled when the upstream answers; still executing when it could
 * not (the minute job tries again). Refused when its process is alive, and when it is not executing.
 */
export async function checkExecution(id: string, ctx: ActionContext): Promise<{ status: ApprovalStatus }> {
  ctx.audit.target = `approval:${id}`;
  const before = await selectRequest(ctx.db.engine, id);
  if (!before) throw new NotFoundError("This approval request does not exist.");
  const refuse = (code: string, message: string) => new AppError(code, message, message);
  if (before.status !== "executing") throw refuse("APPROVAL_CLOSED", "This request is not executing: there is nothing to check.");
  await recoverStuckExecutions(ctx.db, { id });
  const after = await selectRequest(ctx.db.engine, id);
  if (after?.status === "executing" && !after.checking_since) {
    throw refuse("STILL_EXECUTING", "Its process is still sending it: check again if it shows no progress for half a minute.");
  }
  return { status: after?.status ?? before.status };
}
