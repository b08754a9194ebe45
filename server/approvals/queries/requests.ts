import "server-only";
import type { ApprovalFilter, ApprovalStatus } from "@/lib/schemas/approvals";
import type { Queryable } from "@/server/db/engine";
import { keysetPage } from "@/server/db/keyset";

/** The approval requests' SQL (brokerdesk.approval_requests and the decisions they count). */

export interface NewRequest {
  action: string;
  ruleAction: string;
  target: string;
  payload: unknown;
  clientRequestId?: string;
  summary: string;
  diff?: unknown;
  money?: { currency: string; amount: string };
  /** The accounts the request names (an account's page marks the pending ones). */
  accounts: string[];
  rule: { id: string; approversRequired: number; approverRoles: string[] };
  maker: { id: string; email: string; role: string };
}

/** Stores a held request; undefined when the same action, target and payload is already pending. */
export async function insertRequest(q: Queryable, h: NewRequest, hash: string, now: Date, expiresAt: Date): Promise<string | undefined> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO brokerdesk.approval_requests (action, rule_action, target, payload, client_request_id, payload_hash, summary, diff, currency, amount,
            rule_id, approvers_required, approver_roles, maker_id, maker_email, maker_role, created_at, expires_at, accounts)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8::jsonb, $9, $10::numeric, $11, $12, $13::text[], $14, $15, $16, $17, $18, $19::text[])
     ON CONFLICT (action, target, payload_hash) WHERE status = 'pending' DO NOTHING RETURNING id::text`,
    [
      h.action,
      h.ruleAction,
      h.target,
      JSON.stringify(h.payload),
      h.clientRequestId ?? null,
      hash,
      h.summary,
      h.diff === undefined ? null : JSON.stringify(h.diff),
      h.money?.currency ?? null,
      h.money?.amount ?? null,
      h.rule.id,
      h.rule.approversRequired,
      h.rule.approverRoles,
      h.maker.id,
      h.maker.email,
      h.maker.role,
      now,
      expiresAt,
      [...new Set(h.accounts.filter(Boolean))],
    ],
  );
  return rows[0]?.id;
}

export async function selectPendingRequestId(q: Queryable, action: string, target: string, hash: string): Promise<string | undefined> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id::text FROM brokerdesk.approval_requests WHERE action = $1 AND target = $2 AND payload_hash = $3 AND status = 'pending'`,
    [action, target, hash],
  );
  return rows[0]?.id;
}

/** The newest request of an action under a client_request_id that is pending, executing or executed. */
export async function selectLiveRequestOf(
  q: Queryable,
  action: string,
  clientRequestId: string,
): Promise<{ id: string; status: "pending" | "executing" | "executed"; payload_hash: string } | undefined> {
  const { rows } = await q.query<{ id: string; status: "pending" | "executing" | "executed"; payload_hash: string }>(
    `SELECT r.id::text AS id, r.status, r.payload_hash FROM brokerdesk.approval_requests r
      WHERE r.action = $1 AND r.client_request_id = $2 AND r.status IN ('pending', 'executing', 'executed')
      ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
    [action, clientRequestId],
  );
  return rows[0];
}

export interface ExpiredRow {
  id: string;
  action: string;
  target: string;
  payload: unknown;
  maker_email: string;
  expires_at: Date;
}

/** Expires the pending requests due at `now` (all, or the one `id`); returns them. */
export async function expireDueRequests(q: Queryable, now: Date, id?: string): Promise<ExpiredRow[]> {
  const { rows } = await q.query<ExpiredRow>(
    `UPDATE brokerdesk.approval_requests SET status = 'expired', decided_at = $1
      WHERE status = 'pending' AND expires_at <= $1 ${id ? "AND id = $2" : ""}
      RETURNING id::text, action, target, payload, maker_email, expires_at`,
    id ? [now, id] : [now],
  );
  return rows;
}

export interface DbRequest {
  id: string;
  action: string;
  rule_action: string;
  target: string;
  payload: Record<string, unknown>;
  client_request_id: string | null;
  payload_hash: string;
  summary: string;
  diff: unknown;
  currency: string | null;
  amount: string | null;
  approvers_required: number;
  approver_roles: string[];
  status: ApprovalStatus;
  maker_id: string;
  maker_email: string;
  maker_role: string;
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
  executed_at: Date | null;
  upstream_request_id: string | null;
  result: unknown;
  error: string | null;
  alive_at: Date | null;
  checking_since: Date | null;
  approvals: number | string;
}

const APPROVALS = `(SELECT count(*) FROM brokerdesk.approval_decisions d WHERE d.request_id = r.id AND d.decision = 'approve')::int AS approvals`;
const LIST_COLUMNS = `r.id::text, r.action, r.rule_action, r.summary, r.maker_email, r.status, r.approvers_required, r.created_at, r.expires_at, ${APPROVALS}`;

/** One page of the inbox: pending first, then newest. */
export async function selectRequestPage(
  q: Queryable,
  f: ApprovalFilter,
  page: { cursor?: string; limit: number },
): Promise<{ rows: DbRequest[]; nextCursor?: string }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.status) where.push(`r.status = $${params.push(f.status)}`);
  if (f.action) where.push(`(r.rule_action = $${params.push(f.action)} OR r.action = $${params.length})`);
  return keysetPage<DbRequest>(q, {
    columns: LIST_COLUMNS,
    from: "brokerdesk.approval_requests r",
    where,
    params,
    // Pending first (a whole band above the rest), newest first within each band; ms since epoch fit a bigint.
    sort: `((CASE WHEN r.status = 'pending' THEN 1 ELSE 0 END)::bigint * 100000000000000 + (extract(epoch FROM r.created_at) * 1000)::bigint)`,
    tiebreak: "r.id",
    desc: true,
    cursor: page.cursor,
    limit: page.limit,
  });
}

export async function selectRequest(q: Queryable, id: string): Promise<DbRequest | undefined> {
  const { rows } = await q.query<DbRequest>(
    `SELECT r.*, r.id::text AS id, r.maker_id::text AS maker_id, r.amount::text AS amount, ${APPROVALS} FROM brokerdesk.approval_requests r WHERE r.id = $1`,
    [id],
  );
  return rows[0];
}

export interface DecisionRow {
  approver_id: string;
  approver_email: string;
  approver_role: string;
  decision: "approve" | "reject";
  reason: string | null;
  at: Date;
}

export async function selectDecisions(q: Queryable, requestId: string): Promise<DecisionRow[]> {
  const { rows } = await q.query<DecisionRow>(
    `SELECT approver_id::text, approver_email, approver_role, decision, reason, at FROM brokerdesk.approval_decisions WHERE request_id = $1 ORDER BY at, id`,
    [requestId],
  );
  return rows;
}

/** The ids of the requests that held the request with this client_request_id under one of these actions, oldest first. */
export async function selectRequestIdsOf(q: Queryable, clientRequestId: string, actions: string[]): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>(
    "SELECT id::text AS id FROM brokerdesk.approval_requests WHERE client_request_id = $1 AND action = ANY($2) ORDER BY created_at, approval_requests.id",
    [clientRequestId, actions],
  );
  return rows.map((r) => r.id);
}

/** The execution succeeded: its result and upstream request id; false when a recovery settled it first. */
export async function markExecuted(q: Queryable, id: string, result: unknown, upstreamRequestId: string | null): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.approval_requests SET status = 'executed', executed_at = now(), result = $2::jsonb, upstream_request_id = $3
      WHERE id = $1 AND status = 'executing' RETURNING id`,
    [id, JSON.stringify(result), upstreamRequestId],
  );
  return rows.length > 0;
}

/** The execution failed; false when a recovery settled it first. */
export async function markFailed(q: Queryable, id: string, error: string, upstreamRequestId: string | null): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.approval_requests SET status = 'failed', executed_at = now(), error = $2, upstream_request_id = $3
      WHERE id = $1 AND status = 'executing' RETURNING id`,
    [id, error, upstreamRequestId],
  );
  return rows.length > 0;
}

/** The executing process is alive: its beat while it sends the request. */
export async function markAlive(q: Queryable, id: string): Promise<void> {
  await q.query("UPDATE brokerdesk.approval_requests SET alive_at = now() WHERE id = $1 AND status = 'executing'", [id]);
}

/**
 * A beat that also says the claim still holds: false when the request is no longer executing, or the recovery has
 * begun to check it (it took this execution for stopped), so that it is not sent behind the recovery's back.
 */
export async function keepClaim(q: Queryable, id: string): Promise<boolean> {
  const { rows } = await q.query(
    "UPDATE brokerdesk.approval_requests SET alive_at = now() WHERE id = $1 AND status = 'executing' AND checking_since IS NULL RETURNING id",
    [id],
  );
  return rows.length > 0;
}

/** The oldest sign of life among executions still executing (a beat, else the claim); null when none executes. */
export async function selectOldestExecuting(q: Queryable): Promise<Date | null> {
  const { rows } = await q.query<{ at: Date | null }>(
    "SELECT min(COALESCE(alive_at, decided_at)) AS at FROM brokerdesk.approval_requests WHERE status = 'executing'",
  );
  return rows[0]?.at ? new Date(rows[0].at) : null;
}

export interface StuckRow {
  id: string;
  action: string;
  target: string;
  payload: unknown;
  maker_email: string;
  /** The approver whose approval claimed it (the last one), and every approver. */
  checker_email: string | null;
  approver_emails: string[];
}

/**
 * Executions still executing with no sign of their process since `before` (its last beat, else its claim), oldest
 * first, at most 100 (or the one `id`); each is marked as being checked from now on (kept when it already was).
 */
export async function claimStuckExecutions(q: Queryable, before: Date, id?: string): Promise<StuckRow[]> {
  const { rows } = await q.query<StuckRow>(
    `WITH stuck AS (
       SELECT id FROM brokerdesk.approval_requests
        WHERE status = 'executing' AND COALESCE(alive_at, decided_at) < $1 ${id ? "AND id = $2" : ""}
        ORDER BY decided_at LIMIT 100)
     UPDATE brokerdesk.approval_requests r SET checking_since = COALESCE(r.checking_since, now()) FROM stuck WHERE r.id = stuck.id
     RETURNING r.id::text, r.action, r.target, r.payload, r.maker_email,
       (SELECT d.approver_email FROM brokerdesk.approval_decisions d WHERE d.request_id = r.id AND d.decision = 'approve' ORDER BY d.at DESC, d.id DESC LIMIT 1) AS checker_email,
       ARRAY(SELECT d.approver_email FROM brokerdesk.approval_decisions d WHERE d.request_id = r.id AND d.decision = 'approve' ORDER BY d.at, d.id) AS approver_emails`,
    id ? [before, id] : [before],
  );
  return rows;
}

/** Settles an execution still executing; false when another settled it first. */
export async function settleExecution(
  q: Queryable,
  id: string,
  status: "executed" | "failed",
  error: string | null,
  result: unknown,
): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.approval_requests SET status = $2, executed_at = now(), error = $3, result = COALESCE(result, $4::jsonb)
      WHERE id = $1 AND status = 'executing' RETURNING id`,
    [id, status, error, JSON.stringify(result)],
  );
  return rows.length > 0;
}
