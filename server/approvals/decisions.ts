import "server-only";
import { can, type Access } from "@/lib/auth/permissions";
import { AppError, NotFoundError } from "@/lib/errors";
import type { ApprovalStatus, ApproveOutcome } from "@/lib/schemas/approvals";
import type { ActionContext } from "@/server/action-kit/define-action";
import type { Staff } from "@/server/auth/guard";
import type { AppDb } from "@/server/db";
import type { Tx } from "@/server/db/engine";
import { appendAuditIn } from "@/server/audit/trail";
import { executeRequest, type ClaimedRequest } from "./execute";
import { claimRequest, closeRequest, countApprovals, insertDecisionRow, lockRequest, type LockedRequest } from "./queries/decisions";
import { approvableOperation } from "./registry";
import { expireDue } from "./requests";

/**
 * Decisions on a held request, enforced here whatever the page showed: the maker never decides their own request,
 * nobody decides twice, only staff holding approvals:decide whose role the request's rule names, nothing after it
 * is closed or expired. Each decision locks the request's row (FOR UPDATE), so concurrent decisions are taken one
 * after another; the last required approval claims the request for execution in the same transaction
 * (pending → executing, one UPDATE) and writes the `approvals.claim` audit entry in that transaction too, and only
 * the claimer executes it: one upstream request, however many clicks.
 */
const refuse = (code: string, message: string) => new AppError(code, message, message);

const CLOSED: Record<ApprovalStatus, string> = {
  pending: "",
  executing: "This request has been approved and is being executed.",
  executed: "This request has already been approved and executed.",
  failed: "This request was approved; its execution failed.",
  rejected: "This request has been rejected.",
  withdrawn: "This request has been withdrawn by its maker.",
  expired: "This request has expired: nobody decided it in time. The maker can submit it again.",
};

async function lock(tx: Tx, id: string): Promise<LockedRequest> {
  const row = await lockRequest(tx, id);
  if (!row) throw new NotFoundError("This approval request does not exist.");
  return row;
}

/** The checks every decision makes on the locked row. */
function checkDecider(r: LockedRequest, staff: Staff, now: Date): void {
  if (r.status === "pending" && new Date(r.expires_at) <= now) throw refuse("APPROVAL_EXPIRED", CLOSED.expired);
  if (r.status !== "pending") throw refuse(r.status === "expired" ? "APPROVAL_EXPIRED" : "APPROVAL_CLOSED", CLOSED[r.status]);
  if (r.maker_id === staff.id) throw refuse("OWN_REQUEST", "You made this request: another person must decide it.");
  if (!can(staff, "approvals:decide") || !r.approver_roles.includes(staff.role)) {
    throw refuse("NOT_AN_APPROVER", "Your role is not one this request's rule names as approver.");
  }
}

async function insertDecision(tx: Tx, r: LockedRequest, staff: Staff, decision: "approve" | "reject", reason?: string): Promise<void> {
  if (!(await insertDecisionRow(tx, r.id, staff, decision, reason)))
    throw refuse("ALREADY_DECIDED", "You have already decided this request.");
}

async function auditClaim(tx: Tx, ctx: ActionContext, c: ClaimedRequest, approvals: number, required: number): Promise<void> {
  const { staff, meta } = ctx;
  await appendAuditIn(tx, {
    actorId: staff.id,
    actorEmail: staff.email,
    actorRole: staff.role,
    ...meta,
    action: "approvals.claim",
    target: `approval:${c.id}`,
    outcome: "success",
    input: { approvalId: c.id, action: c.action, target: c.target, maker: c.maker_email, checker: staff.email, approvals, required },
  });
}

/** Expired while pending: closed (and audited) outside the refused transaction, then refused. */
async function refuseIfExpired(db: AppDb, id: string, now: Date): Promise<void> {
  if ((await expireDue(db, { id, now })).length) throw refuse("APPROVAL_EXPIRED", CLOSED.expired);
}

export async function approveRequest(id: string, ctx: ActionContext, now = new Date()): Promise<ApproveOutcome> {
  const { db, staff } = ctx;
  ctx.audit.target = `approval:${id}`; // refused or not, the entry names the request
  await refuseIfExpired(db, id, now);
  const claim = await db.engine.transaction(async (tx) => {
    const r = await lock(tx, id);
    checkDecider(r, staff, now);
    // Executed, it would be sent in the name of someone who has left the desk; rejecting it stays open.
    if (r.maker_disabled)
      throw refuse(
        "MAKER_DISABLED",
        "Its maker's account is disabled: it cannot be executed in their name. Reject it; it can be made again.",
      );
    await insertDecision(tx, r, staff, "approve");
    const approvals = await countApprovals(tx, id);
    if (approvals < Number(r.approvers_required)) return { r, approvals, claimed: undefined };
    const claimed = await claimRequest(tx, id, now);
    // The decision that completed the approvals and the claim are in the trail with them, or none of them is.
    if (claimed) await auditClaim(tx, ctx, claimed, approvals, Number(r.approvers_required));
    return { r, approvals, claimed };
  });
  const required = Number(claim.r.approvers_required);
  if (!claim.claimed) return { status: "pending", approvals: claim.approvals, required };
  const done = await executeRequest(claim.claimed, ctx);
  return { status: done.status, approvals: claim.approvals, required, upstreamRequestId: done.upstreamRequestId, error: done.error };
}

export async function rejectRequest(id: string, reason: string, ctx: ActionContext, now = new Date()): Promise<{ status: ApprovalStatus }> {
  const { db, staff } = ctx;
  ctx.audit.target = `approval:${id}`; // refused or not, the entry names the request
  await refuseIfExpired(db, id, now);
  const r = await db.engine.transaction(async (tx) => {
    const row = await lock(tx, id);
    checkDecider(row, staff, now);
    await insertDecision(tx, row, staff, "reject", reason);
    await closeRequest(tx, id, "rejected", now);
    return row;
  });
  await tellOperation(db, r, "DECLINED", reason);
  return { status: "rejected" };
}

export async function withdrawRequest(id: string, ctx: ActionContext, now = new Date()): Promise<{ status: ApprovalStatus }> {
  const { db, staff } = ctx;
  ctx.audit.target = `approval:${id}`; // refused or not, the entry names the request
  await refuseIfExpired(db, id, now);
  const r = await db.engine.transaction(async (tx) => {
    const row = await lock(tx, id);
    if (row.maker_id !== staff.id) throw refuse("NOT_THE_MAKER", "Only the person who made this request can withdraw it.");
    if (row.status !== "pending") throw refuse("APPROVAL_CLOSED", CLOSED[row.status]);
    await closeRequest(tx, id, "withdrawn", now);
    return row;
  });
  await tellOperation(db, r, "WITHDRAWN");
  return { status: "withdrawn" };
}

async function tellOperation(db: AppDb, r: LockedRequest, status: "DECLINED" | "WITHDRAWN", reason?: string): Promise<void> {
  const op = approvableOperation(r.action);
  const parsed = op?.schema.safeParse(r.payload);
  if (op?.onStatus && parsed?.success)
    await op.onStatus(parsed.data, status, { approvalId: r.id, makerEmail: r.maker_email, ctx: { db }, reason });
}

/** What the detail page offers this person (the server refuses the rest anyway). */
export function decisionControls(
  r: { status: ApprovalStatus; makerId: string; approverRoles: string[]; decisions: { approverId: string }[] },
  staff: { id: string } & Access,
): { approve: boolean; reject: boolean; withdraw: boolean } {
  const pending = r.status === "pending";
  const decider =
    pending &&
    r.makerId !== staff.id &&
    can(staff, "approvals:decide") &&
    r.approverRoles.includes(staff.role) &&
    !r.decisions.some((d) => d.approverId === staff.id);
  return { approve: decider, reject: decider, withdraw: pending && r.makerId === staff.id };
}
