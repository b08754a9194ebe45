import "server-only";
import type { ApprovalStatus } from "@/lib/schemas/approvals";
import type { Queryable } from "@/server/db/engine";
import type { ClaimedRequest } from "../execute";

/** The decisions' SQL: the request's row locked for a decision, the decisions, the claim for execution. */

export interface LockedRequest {
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
  /** The maker's staff account is disabled now. */
  maker_disabled: boolean;
}

/** The request's row, locked for the transaction (FOR UPDATE); undefined when there is none. */
export async function lockRequest(tx: Queryable, id: string): Promise<LockedRequest | undefined> {
  const { rows } = await tx.query<LockedRequest>(
    `SELECT r.id::text AS id, r.action, r.status, r.payload, r.maker_id::text AS maker_id, r.maker_email, r.maker_role, r.approvers_required,
            r.approver_roles, r.expires_at,
            EXISTS (SELECT 1 FROM brokerdesk.staff_users s WHERE s.id = r.maker_id AND s.disabled) AS maker_disabled
       FROM brokerdesk.approval_requests r WHERE r.id = $1 FOR UPDATE OF r`,
    [id],
  );
  return rows[0];
}

/** Records a decision; false when this approver already decided the request. */
export async function insertDecisionRow(
  tx: Queryable,
  requestId: string,
  staff: { id: string; email: string; role: string },
  decision: "approve" | "reject",
  reason?: string,
): Promise<boolean> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO brokerdesk.approval_decisions (request_id, approver_id, approver_email, approver_role, decision, reason)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (request_id, approver_id) DO NOTHING RETURNING id::text`,
    [requestId, staff.id, staff.email, staff.role, decision, reason ?? null],
  );
  return rows.length > 0;
}

export async function countApprovals(tx: Queryable, requestId: string): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM brokerdesk.approval_decisions WHERE request_id = $1 AND decision = 'approve'`,
    [requestId],
  );
  return Number(rows[0].n);
}

/** pending → executing, for the one caller that gets the row back; undefined when it was not pending. */
export async function claimRequest(tx: Queryable, id: string, now: Date): Promise<ClaimedRequest | undefined> {
  const { rows } = await tx.query<ClaimedRequest>(
    `UPDATE brokerdesk.approval_requests SET status = 'executing', decided_at = $2, alive_at = $2
      WHERE id = $1 AND status = 'pending' RETURNING id::text, action, target, payload, maker_id::text, maker_email, maker_role, diff`,
    [id, now],
  );
  return rows[0];
}

export async function closeRequest(tx: Queryable, id: string, status: "rejected" | "withdrawn", now: Date): Promise<void> {
  await tx.query(`UPDATE brokerdesk.approval_requests SET status = $3, decided_at = $2 WHERE id = $1`, [id, now, status]);
}
