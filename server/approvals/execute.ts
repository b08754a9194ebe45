import "server-only";
import { isRole, type Role } from "@/lib/auth/permissions";
import type { ApprovalStatus } from "@/lib/schemas/approvals";
import type { ActionContext, AuditNotes } from "@/server/action-kit/define-action";
import { recordingBroker } from "@/server/action-kit/recording-broker";
import { toActionError } from "@/server/action-kit/upstream-error";
import { appendAudit } from "@/server/audit/trail";
import { broker, type BrokerClient } from "@/server/broker";
import { logger } from "@/server/log";
import { approvableOperation } from "./registry";

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
 * `run`, on behalf of its maker (so a movement's requester stays the maker) with a recording Broker client, and
 * writes the outcome: executed (result, upstream request id) or failed (the safe message; never re-sent by
 * itself). Audited as its own entry under the operation's action name, by the approver whose approval completed it.
 */
export async function executeRequest(req: ClaimedRequest, approver: ActionContext): Promise<{ status: ApprovalStatus; upstreamRequestId: string | null; error: string | null }> {
  const { db } = approver;
  const notes: AuditNotes = {};
  let client: BrokerClient | undefined;
  const ctx: ActionContext = {
    staff: { id: req.maker_id, email: req.maker_email, name: req.maker_email, role: (isRole(req.maker_role) ? req.maker_role : "operations") as Role },
    db, meta: approver.meta, audit: notes,
    get broker() {
      return (client ??= recordingBroker(broker(), notes));
    },
  };
  const op = approvableOperation(req.action);
  const auditInput = { approvalId: req.id, maker: req.maker_email, checker: approver.staff.email, payload: req.payload };
  const base = {
    actorId: approver.staff.id, actorEmail: approver.staff.email, actorRole: approver.staff.role, action: req.action, ...approver.meta,
  };
  try {
    if (!op) throw new Error(`no approvable operation registered as ${req.action}`);
    const input = op.schema.parse(req.payload);
    const result = await op.run(input, ctx, { diff: req.diff });
    const upstreamRequestId = notes.upstreamRequestId ?? null;
    await db.engine.query(
      `UPDATE brokerdesk.approval_requests SET status = 'executed', executed_at = now(), result = $2::jsonb, upstream_request_id = $3 WHERE id = $1`,
      [req.id, JSON.stringify(result ?? null), upstreamRequestId],
    );
    await appendAudit(db, { ...base, ...notes, target: notes.target ?? req.target, input: { ...auditInput, upstreamRequestId }, outcome: "success" });
    logger.info({ action: req.action, approvalId: req.id, actor: approver.staff.email, outcome: "executed" }, "approval executed");
    return { status: "executed", upstreamRequestId, error: null };
  } catch (error) {
    const e = (toActionError(error) ?? {}) as { code?: unknown; userMessage?: unknown; requestId?: unknown };
    const code = typeof e.code === "string" ? e.code : "INTERNAL";
    const message = typeof e.userMessage === "string" ? e.userMessage : "The execution failed.";
    const upstreamRequestId = notes.upstreamRequestId ?? (typeof e.requestId === "string" ? e.requestId : null);
    await db.engine.query(
      `UPDATE brokerdesk.approval_requests SET status = 'failed', executed_at = now(), error = $2, upstream_request_id = $3 WHERE id = $1`,
      [req.id, message, upstreamRequestId],
    );
    await appendAudit(db, {
      ...base, ...notes, upstreamRequestId, target: notes.target ?? req.target, input: { ...auditInput, upstreamRequestId }, outcome: "failure", errorCode: code,
    });
    logger[code === "INTERNAL" ? "error" : "warn"]({ action: req.action, approvalId: req.id, code, err: code === "INTERNAL" ? error : undefined }, "approval execution failed");
    const parsed = op?.schema.safeParse(req.payload);
    if (op?.onStatus && parsed?.success) await op.onStatus(parsed.data, "FAILED", { approvalId: req.id, makerEmail: req.maker_email, ctx: { db }, reason: message });
    return { status: "failed", upstreamRequestId, error: message };
  }
}
