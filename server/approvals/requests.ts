import "server-only";
import { createHash } from "node:crypto";
import { env } from "@/lib/env";
import { NotFoundError } from "@/lib/errors";
import type { ApprovalDecisionRow, ApprovalDetail, ApprovalFilter, ApprovalListRow, ApprovalStatus } from "@/lib/schemas/approvals";
import { appendAudit, canonicalJson } from "@/server/audit/trail";
import type { AppDb } from "@/server/db";
import type { Queryable } from "@/server/db/engine";
import { keysetPage } from "@/server/db/keyset";
import { MASK, maskValue } from "@/server/accounts/masking";
import { logger } from "@/server/log";
import { approvableOperation } from "./registry";
import type { MatchedRule } from "./rules";

/**
 * Approval requests: stored at hold time exactly as they will be sent, listed pending first, and expired when
 * nobody decided them within APPROVAL_TTL_HOURS (on read, on decide, and by the sweep), each expiry audited.
 */
export const payloadHash = (payload: unknown) => createHash("sha256").update(canonicalJson(payload)).digest("hex");

export function approvalTtlMs(): number {
  return env().APPROVAL_TTL_HOURS * 3_600_000;
}

export interface HoldInput {
  action: string;
  ruleAction: string;
  target: string;
  payload: unknown;
  clientRequestId?: string;
  summary: string;
  diff?: unknown;
  money?: { currency: string; amount: string };
  rule: MatchedRule;
  maker: { id: string; email: string; role: string };
}

/**
 * Stores a held request; the same action, target and payload already pending is that request (a double submit
 * waits once). Returns its id and whether it was made now.
 */
export async function holdRequest(q: Queryable, h: HoldInput, now = new Date()): Promise<{ id: string; created: boolean }> {
  const hash = payloadHash(h.payload);
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO brokerdesk.approval_requests (action, rule_action, target, payload, client_request_id, payload_hash, summary, diff, currency, amount,
            rule_id, approvers_required, approver_roles, maker_id, maker_email, maker_role, created_at, expires_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8::jsonb, $9, $10::numeric, $11, $12, $13::text[], $14, $15, $16, $17, $18)
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
      new Date(now.getTime() + approvalTtlMs()),
    ],
  );
  if (rows[0]) return { id: rows[0].id, created: true };
  const existing = await q.query<{ id: string }>(
    `SELECT id::text FROM brokerdesk.approval_requests WHERE action = $1 AND target = $2 AND payload_hash = $3 AND status = 'pending'`,
    [h.action, h.target, hash],
  );
  if (!existing.rows[0]) throw new Error("approval request neither inserted nor pending");
  return { id: existing.rows[0].id, created: false };
}

interface ExpiredRow {
  id: string;
  action: string;
  target: string;
  payload: unknown;
  maker_email: string;
  expires_at: Date;
}

/**
 * Expires pending requests whose time has passed (all of them, or the one `id`): each audited as approvals.expire,
 * and its operation told (a held movement shows EXPIRED). Returns the ids it expired.
 */
export async function expireDue(db: AppDb, o: { id?: string; now?: Date } = {}): Promise<string[]> {
  const now = o.now ?? new Date();
  const { rows } = await db.engine.query<ExpiredRow>(
    `UPDATE brokerdesk.approval_requests SET status = 'expired', decided_at = $1
      WHERE status = 'pending' AND expires_at <= $1 ${o.id ? "AND id = $2" : ""}
      RETURNING id::text, action, target, payload, maker_email, expires_at`,
    o.id ? [now, o.id] : [now],
  );
  for (const r of rows) await afterExpiry(db, r);
  return rows.map((r) => r.id);
}

async function afterExpiry(db: AppDb, r: ExpiredRow): Promise<void> {
  await appendAudit(db, {
    action: "approvals.expire",
    target: `approval:${r.id}`,
    outcome: "success",
    input: { approvalId: r.id, action: r.action, target: r.target, maker: r.maker_email, expiresAt: new Date(r.expires_at).toISOString() },
  });
  const op = approvableOperation(r.action);
  const parsed = op?.schema.safeParse(r.payload);
  if (op?.onStatus && parsed?.success)
    await op.onStatus(parsed.data, "EXPIRED", { approvalId: r.id, makerEmail: r.maker_email, ctx: { db } });
}

/** The sweep: expires what is due, logging rather than throwing (it runs on a timer and before reads). */
export async function sweepExpired(db: AppDb, now = new Date()): Promise<number> {
  try {
    return (await expireDue(db, { now })).length;
  } catch (error) {
    logger.warn({ err: error }, "approval expiry sweep failed");
    return 0;
  }
}

interface DbRequest {
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
  approvals: number | string;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const APPROVALS = `(SELECT count(*) FROM brokerdesk.approval_decisions d WHERE d.request_id = r.id AND d.decision = 'approve')::int AS approvals`;
const LIST_COLUMNS = `r.id::text, r.action, r.rule_action, r.summary, r.maker_email, r.status, r.approvers_required, r.created_at, r.expires_at, ${APPROVALS}`;

function toListRow(r: DbRequest): ApprovalListRow {
  return {
    id: r.id,
    action: r.action,
    ruleAction: r.rule_action,
    summary: r.summary,
    makerEmail: r.maker_email,
    status: r.status,
    approvals: Number(r.approvals),
    approversRequired: Number(r.approvers_required),
    createdAt: iso(r.created_at)!,
    expiresAt: iso(r.expires_at)!,
  };
}

/** One page of the inbox: pending first, then newest. Expires what is due first, so nothing shown is stale. */
export async function listApprovals(
  db: AppDb,
  f: ApprovalFilter,
  page: { cursor?: string; limit: number },
): Promise<{ rows: ApprovalListRow[]; nextCursor?: string }> {
  await sweepExpired(db);
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.status) where.push(`r.status = $${params.push(f.status)}`);
  if (f.action) where.push(`(r.rule_action = $${params.push(f.action)} OR r.action = $${params.length})`);
  const result = await keysetPage<DbRequest>(db.engine, {
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
  return { rows: result.rows.map(toListRow), nextCursor: result.nextCursor };
}

export async function getApproval(db: AppDb, id: string): Promise<ApprovalDetail> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFoundError("This approval request does not exist.");
  await expireDue(db, { id });
  const { rows } = await db.engine.query<DbRequest>(
    `SELECT r.*, r.id::text AS id, r.maker_id::text AS maker_id, r.amount::text AS amount, ${APPROVALS} FROM brokerdesk.approval_requests r WHERE r.id = $1`,
    [id],
  );
  const r = rows[0];
  if (!r) throw new NotFoundError("This approval request does not exist.");
  const { rows: decisions } = await db.engine.query<{
    approver_id: string;
    approver_email: string;
    approver_role: string;
    decision: "approve" | "reject";
    reason: string | null;
    at: Date;
  }>(
    `SELECT approver_id::text, approver_email, approver_role, decision, reason, at FROM brokerdesk.approval_decisions WHERE request_id = $1 ORDER BY at, id`,
    [id],
  );
  return {
    ...toListRow(r),
    target: r.target,
    payload: r.payload,
    clientRequestId: r.client_request_id,
    payloadHash: r.payload_hash,
    diff: r.diff,
    currency: r.currency,
    amount: r.amount,
    approverRoles: r.approver_roles,
    makerId: r.maker_id,
    makerRole: r.maker_role,
    decidedAt: iso(r.decided_at),
    executedAt: iso(r.executed_at),
    upstreamRequestId: r.upstream_request_id,
    result: r.result,
    error: r.error,
    decisions: decisions.map((d): ApprovalDecisionRow => ({
      approverId: d.approver_id,
      approverEmail: d.approver_email,
      approverRole: d.approver_role,
      decision: d.decision,
      reason: d.reason,
      at: iso(d.at)!,
    })),
  };
}

/** The approval requests that held the request with this client_request_id under one of these actions, oldest first. */
export async function approvalsOfRequest(db: AppDb, actions: string[], clientRequestId: string): Promise<ApprovalDetail[]> {
  const { rows } = await db.engine.query<{ id: string }>(
    "SELECT id::text AS id FROM brokerdesk.approval_requests WHERE client_request_id = $1 AND action = ANY($2) ORDER BY created_at, id",
    [clientRequestId, actions],
  );
  return Promise.all(rows.map((r) => getApproval(db, r.id)));
}

const PII_PATH = /(^|\.)(tax_id|id_number)$|_address\.(state|city|street_address|postal_code)$/;

function maskAt(value: unknown, path: string): unknown {
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, maskAt(v, path ? `${path}.${k}` : k)]));
  }
  return typeof value === "string" && value && PII_PATH.test(path) ? (path.includes("_address.") ? MASK : maskValue(value)) : value;
}

/**
 * The request as a person without `pii:view` may see it: the tax id, the ID number and the street, city, state and
 * postal code of addresses masked in the payload and in the diff, as the account pages mask them.
 */
export function maskApprovalPii(r: ApprovalDetail): ApprovalDetail {
  const diff = Array.isArray(r.diff)
    ? (r.diff as { path?: string; before?: unknown; after?: unknown }[]).map((l) =>
        l.path && PII_PATH.test(l.path) ? { ...l, before: maskAt(l.before, l.path), after: maskAt(l.after, l.path) } : l,
      )
    : r.diff;
  return { ...r, payload: maskAt(r.payload, "") as Record<string, unknown>, diff };
}
