import "server-only";
import { keepClaim, markAlive, markExecuted, markFailed, selectRequest } from "./queries/requests";
import { recoverStuckExecutions } from "./recover";
import { outcomeUnknown } from "@/server/broker/errors";
import { appendAudit } from "@/server/audit/trail";
import { logger } from "@/server/log";
import type { ApprovalStatus } from "@/lib/schemas/approvals";
import type { ActionContext } from "@/server/action-kit/define-action";
import { actionContext, performAudited } from "@/server/action-kit/perform";
import { BEAT_MS } from "./liveness";
import { approvableOperation } from "./registry";
import { accessOfRole } from "@/server/roles/roles";

/** A request this process has claimed (pending → executing): it alone sends it. */
export interface ClaimedRequest {
  id: string;
  action: string;
  target: string;
  payload: unknown;
  maker_id: string;
  maker_email: string;
  maker_role: string;
  /** What `assess` found when the request was held (an update's before → after), or null. */
  diff: unknown;
}

/**
 * Executes a claimed request once, with its stored payload (its own client_request_id), through its operation's
 * `run`, on behalf of its maker (so a movement's requester stays the maker), through the same steps as a direct
 * action (`performAudited`: recording broker, error mapping, one audit entry under the operation's action name by
 * the approver whose approval completed it, one log line), and writes the outcome: executed (result, upstream
 * request id) or failed (the safe message; never re-sent by itself); a failure after which the upstream may have it
 * (`outcomeUnknown`) is settled from the upstream's answer instead, as a stopped execution is. Before the send an `approvals.execute` entry
 * says it started (after the claim's entry, which the claim's transaction wrote); the process beats `alive_at`
 * until the outcome is written, so a stopped one is told from a slow one.
 */
export async function executeRequest(
  req: ClaimedRequest,
  approver: ActionContext,
): Promise<{ status: ApprovalStatus; upstreamRequestId: string | null; error: string | null }> {
  const { db } = approver;
  // The maker's role as it is now (a custom role deleted since: no permissions; the send itself checks none).
  const access = (await accessOfRole(db.engine, req.maker_role)) ?? { role: req.maker_role, roleLabel: req.maker_role, permissions: [] };
  const maker = { id: req.maker_id, email: req.maker_email, name: req.maker_email, ...access };
  const ctx = actionContext(maker, db, approver.meta);
  const op = approvableOperation(req.action);
  const people = { approvalId: req.id, maker: req.maker_email, checker: approver.staff.email };
  await appendAudit(db, {
    actorId: approver.staff.id,
    actorEmail: approver.staff.email,
    actorRole: approver.staff.role,
    ...approver.meta,
    action: "approvals.execute",
    target: `approval:${req.id}`,
    outcome: "success",
    input: { ...people, action: req.action, target: req.target },
  });
  const beat = setInterval(
    () => void markAlive(db.engine, req.id).catch((error) => logger.warn({ err: error, approvalId: req.id }, "execution beat failed")),
    BEAT_MS,
  );
  beat.unref();
  try {
    // Right before the send: a process stalled since its claim (its beats lost) may have been taken for stopped, and
    // the recovery may be ruling that nothing was sent; it is then not sent at all.
    if (!(await keepClaim(db.engine, req.id))) {
      logger.warn({ approvalId: req.id }, "an execution found its claim taken by the recovery before it sent; nothing was sent");
      const now = await selectRequest(db.engine, req.id);
      return { status: now?.status ?? "executing", upstreamRequestId: null, error: now?.error ?? null };
    }
    return await execute(req, approver, ctx, op, people);
  } finally {
    clearInterval(beat);
  }
}

async function execute(
  req: ClaimedRequest,
  approver: ActionContext,
  ctx: ActionContext,
  op: ReturnType<typeof approvableOperation>,
  people: { approvalId: string; maker: string; checker: string },
): Promise<{ status: ApprovalStatus; upstreamRequestId: string | null; error: string | null }> {
  const { db } = approver;
  const performed = await performAudited(ctx, {
    action: req.action,
    actor: approver.staff,
    target: req.target,
    input: (upstreamRequestId) => ({
      ...people,
      payload: req.payload,
      upstreamRequestId: upstreamRequestId ?? null,
    }),
    failureMessage: "The execution failed.",
    log: { approvalId: req.id },
    async work() {
      if (!op) throw new Error(`no approvable operation registered as ${req.action}`);
      return { data: await op.run(op.schema.parse(req.payload), ctx, { diff: req.diff }) };
    },
  });
  const upstreamRequestId = performed.upstreamRequestId ?? null;
  if (performed.ok) {
    if (!(await markExecuted(db.engine, req.id, performed.data ?? null, upstreamRequestId))) settledMeanwhile(req.id);
    return { status: "executed", upstreamRequestId, error: null };
  }
  if (op?.lookup && outcomeUnknown(performed.error)) {
    // The upstream may have it (no answer, a 5xx, or the desk failed after sending): marked failed, it would be asked
    // again under a new client_request_id and could move twice. Settled executed now when the upstream has it; else
    // left executing, and the recovery asks again once this execution counts as stopped (its beat ends here).
    await recoverStuckExecutions(db, { id: req.id, olderThanMs: 0, now: new Date(Date.now() + BEAT_MS), onlyIfSent: true });
    const after = await selectRequest(db.engine, req.id);
    const status = after?.status ?? "executing";
    return { status, upstreamRequestId, error: status === "executing" ? performed.userMessage : (after?.error ?? null) };
  }
  const message = performed.userMessage;
  if (!(await markFailed(db.engine, req.id, message, upstreamRequestId))) {
    // The recovery's settlement stands, and it told the operation whatever it found.
    settledMeanwhile(req.id);
    return { status: "failed", upstreamRequestId, error: message };
  }
  const parsed = op?.schema.safeParse(req.payload);
  if (op?.onStatus && parsed?.success)
    await op.onStatus(parsed.data, "FAILED", { approvalId: req.id, makerEmail: req.maker_email, ctx: { db }, reason: message });
  return { status: "failed", upstreamRequestId, error: message };
}

/** The recovery settled it from the upstream's answer while this process still ran (it had stopped beating). */
const settledMeanwhile = (approvalId: string) =>
  logger.warn(
    { approvalId },
    "an execution's outcome arrived after the recovery had settled the request; the outcome's audit entry stands",
  );
