import "server-only";
import { can, type Role } from "@/lib/auth/permissions";
import { AppError, NotFoundError } from "@/lib/errors";
import type { ApprovalStatus, ApproveOutcome } from "@/lib/schemas/approvals";
import type { ActionContext } from "@/server/action-kit/define-action";
import type { Staff } from "@/server/auth/guard";
import type { AppDb } from "@/server/db";
import type { Tx } from "@/server/db/engine";
import { executeRequest, type ClaimedRequest } from "./execute";
import { approvableOperation } from "./registry";
import { expireDue } from "./requests";

/**
 * Decisions on a held request, enforced here whatever the page showed: the maker never decides their own request,
 * nobody decides twice, only staff holding approvals:decide whose role the request's rule names, nothing after it
 * is closed or expired. Each decision locks the request's row (FOR UPDATE), so concurrent decisions are taken one
 * after another; the last required approval claims the request for execution in the same transaction
 * (pending → executing, one UPDATE), and only the claimer executes it: one upstream request, however many clicks.
 */
interface LockedRequest {
  id: string;
  action: string;
  status: ApprovalStatus;
  payload: unknown;
  maker_id: string;
  maker_email: string;
  maker_role: string;
  approvers_required: number;
  approver_roles: string[];
  expires_at: Date;
}

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
  const { rows } = await tx.query<LockedRequest>(
    `SELECT id::text, action, status, payload, maker_id::text, maker_email, maker_role, approvers_required, approver_roles, expires_at
       FROM brokerdesk.approval_requests WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!rows[0]) throw new NotFoundError("This approval request does not exist.");
  return rows[0];
}

/** The checks every decision makes on the locked row. */
function checkDecider(r: LockedRequest, staff: Staff, now: Date): void {
  if (r.status === "pending" && new Date(r.expires_at) <= now) throw refuse("APPROVAL_EXPIRED", CLOSED.expired);
  if (r.status !== "pending") throw refuse(r.status === "expired" ? "APPROVAL_EXPIRED" : "APPROVAL_CLOSED", CLOSED[r.status]);
  if (r.maker_id === staff.id) throw refuse("OWN_REQUEST", "You made this request: another person must decide it.");
  if (!can(staff.role, "approvals:decide") || !r.approver_roles.includes(staff.role)) {
    throw refuse("NOT_AN_APPROVER", "Your role is not one this request's rule names as approver.");
  }
}

async function insertDecision(tx: Tx, r: LockedRequest, staff: Staff, decision: "approve" | "reject", reason?: string): Promise<void> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO brokerdesk.approval_decisions (request_id, approver_id, approver_email, approver_role, decision, reason)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (request_id, approver_id) DO NOTHING RETURNING id::text`,
    [r.id, staff.id, staff.email, staff.role, decision, reason ?? null],
  );
  if (!rows[0]) throw refuse("ALREADY_DECIDED", "You have already decided this request.");
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
    await insertDecision(tx, r, staff, "approve");
    const { rows } = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM brokerdesk.approval_decisions WHERE request_id = $1 AND decision = 'approve'`,
      [id],
    );
    const approvals = Number(rows[0].n);
    if (approvals < Number(r.approvers_required)) return { r, approvals, claimed: undefined };
    const { rows: claimed } = await tx.query<ClaimedRequest>(
      `UPDATE brokerdesk.approval_requests SET status = 'executing', decided_at = $2
        WHERE id = $1 AND status = 'pending' RETURNING id::text, action, target, payload, maker_id::text, maker_email, maker_role, diff`,
      [id, now],
    );
    return { r, approvals, claimed: claimed[0] };
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
    await tx.query(`UPDATE brokerdesk.approval_requests SET status = 'rejected', decided_at = $2 WHERE id = $1`, [id, now]);
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
    await tx.query(`UPDATE brokerdesk.approval_requests SET status = 'withdrawn', decided_at = $2 WHERE id = $1`, [id, now]);
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
  staff: { id: string; role: Role },
): { approve: boolean; reject: boolean; withdraw: boolean } {
  const pending = r.status === "pending";
  const decider =
    pending &&
    r.makerId !== staff.id &&
    can(staff.role, "approvals:decide") &&
    r.approverRoles.includes(staff.role) &&
    !r.decisions.some((d) => d.approverId === staff.id);
  return { approve: decider, reject: decider, withdraw: pending && r.makerId === staff.id };
}
