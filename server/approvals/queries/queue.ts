import "server-only";
import type { Queryable } from "@/server/db/engine";

/**
 * The queue's SQL around the desk: what waits for one person's decision (the menu's badge), the held requests that
 * touch an account or a movement (their pages' marker), and the decisions a maker has not seen yet (the header's
 * notice). Each is one small statement on a partial index of migrations 0012 and 0114.
 */

/** The decided states a maker is told of (withdrawn is the maker's own act; executing settles within seconds). */
const DECIDED = `('executed', 'failed', 'rejected', 'expired')`;

/**
 * Pending requests, not expired, that this person may still decide: not their own, their role among the rule's
 * approvers, and not decided by them already (a rule of two approvers waits for someone else after their approval).
 */
export async function countWaitingFor(q: Queryable, staff: { id: string; role: string }): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM brokerdesk.approval_requests r
      WHERE r.status = 'pending' AND r.expires_at > now() AND r.maker_id <> $1::uuid AND $2 = ANY (r.approver_roles)
        AND NOT EXISTS (SELECT 1 FROM brokerdesk.approval_decisions d WHERE d.request_id = r.id AND d.approver_id = $1::uuid)`,
    [staff.id, staff.role],
  );
  return Number(rows[0]?.n ?? 0);
}

export interface PendingMarkRow {
  id: string;
  summary: string;
  rule_action: string;
  maker_email: string;
  created_at: Date;
}

/** The pending requests (not expired) naming an account, or holding the movement of a client_request_id; newest first. */
export async function selectPendingTouching(
  q: Queryable,
  by: { account: string } | { clientRequestId: string },
  limit: number,
): Promise<PendingMarkRow[]> {
  const [condition, value] =
    "account" in by ? ["r.accounts @> ARRAY[$1]::text[]", by.account] : ["r.client_request_id = $1", by.clientRequestId];
  const { rows } = await q.query<PendingMarkRow>(
    `SELECT r.id::text, r.summary, r.rule_action, r.maker_email, r.created_at FROM brokerdesk.approval_requests r
      WHERE r.status = 'pending' AND r.expires_at > now() AND ${condition}
      ORDER BY r.created_at DESC, r.id DESC LIMIT $2`,
    [value, limit],
  );
  return rows;
}

export interface UnseenDecisionRow {
  id: string;
  summary: string;
  rule_action: string;
  status: "executed" | "failed" | "rejected" | "expired";
  decided_at: Date;
  error: string | null;
  /** Who rejected it, or whose approval completed it; null for an expiry. */
  decided_by: string | null;
  reason: string | null;
  /** How many there are in all (the rows are the newest `limit`). */
  total: number;
}

/** A maker's decided requests not yet seen, newest decision first, with how many there are. */
export async function selectUnseenDecisions(q: Queryable, makerId: string, limit: number): Promise<UnseenDecisionRow[]> {
  const { rows } = await q.query<UnseenDecisionRow>(
    `SELECT r.id::text, r.summary, r.rule_action, r.status, r.decided_at, r.error, d.approver_email AS decided_by, d.reason,
            (count(*) OVER ())::int AS total
       FROM brokerdesk.approval_requests r
       LEFT JOIN LATERAL (
         SELECT approver_email, reason FROM brokerdesk.approval_decisions d
          WHERE d.request_id = r.id ORDER BY (d.decision = 'reject') DESC, d.at DESC, d.id DESC LIMIT 1) d ON true
      WHERE r.maker_id = $1::uuid AND r.maker_seen_at IS NULL AND r.status IN ${DECIDED}
      ORDER BY r.decided_at DESC, r.id DESC LIMIT $2`,
    [makerId, limit],
  );
  return rows;
}

/** Marks these decided requests of this maker seen; returns how many it marked (others' and undecided ones are left). */
export async function markDecisionsSeen(q: Queryable, makerId: string, ids: string[]): Promise<number> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.approval_requests SET maker_seen_at = now()
      WHERE maker_id = $1::uuid AND id = ANY ($2::uuid[]) AND maker_seen_at IS NULL AND status IN ${DECIDED} RETURNING id`,
    [makerId, ids],
  );
  return rows.length;
}
