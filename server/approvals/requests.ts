import "server-only";
import { createHash } from "node:crypto";
import { env } from "@/lib/env";
import { AppError, NotFoundError } from "@/lib/errors";
import {
  isAccountKey,
  type ApprovalDecisionRow,
  type ApprovalDetail,
  type ApprovalFilter,
  type ApprovalListRow,
} from "@/lib/schemas/approvals";
import { canonicalJson } from "@/server/audit/entry";
import { appendAudit } from "@/server/audit/trail";
import type { AppDb } from "@/server/db";
import type { Queryable } from "@/server/db/engine";
import { accountNumbers } from "@/server/accounts/directory";
import { MASK, maskValue } from "@/server/accounts/masking";
import { logger } from "@/server/log";
import { STUCK_AFTER_MS } from "./liveness";
import { approvableOperation } from "./registry";
import {
  expireDueRequests,
  insertRequest,
  selectDecisions,
  selectLiveRequestOf,
  selectPendingRequestId,
  selectRequest,
  selectRequestIdsOf,
  selectRequestPage,
  type DbRequest,
  type ExpiredRow,
  type NewRequest,
} from "./queries/requests";
import type { MatchedRule } from "./queries/rules";

/**
 * Approval requests: stored at hold time exactly as they will be sent, listed pending first, and expired when
 * nobody decided them within APPROVAL_TTL_HOURS (on read, on decide, and by the sweep), each expiry audited.
 */
export const payloadHash = (payload: unknown) => createHash("sha256").update(canonicalJson(payload)).digest("hex");

export function approvalTtlMs(): number {
  return env().APPROVAL_TTL_HOURS * 3_600_000;
}

export interface HoldInput extends NewRequest {
  rule: MatchedRule;
}

/**
 * Stores a held request; the same action, target and payload already pending is that request (a double submit
 * waits once). A request under a client_request_id already approved (executing or executed) is that request too: a
 * repeat after a lost answer is not held a second time, and another body under the same id is refused, as the
 * upstream refuses it. Returns its id, whether it was made now, and its status.
 */
export async function holdRequest(
  q: Queryable,
  h: HoldInput,
  now = new Date(),
): Promise<{ id: string; created: boolean; status: "pending" | "executing" | "executed" }> {
  const hash = payloadHash(h.payload);
  const earlier = h.clientRequestId ? await selectLiveRequestOf(q, h.action, h.clientRequestId) : undefined;
  if (earlier && earlier.payload_hash !== hash) {
    const message = `client_request_id ${h.clientRequestId} is already used by another request (approval ${earlier.id}): make a new request.`;
    throw new AppError("DUPLICATE_CLIENT_REQUEST_ID", message, message);
  }
  if (earlier && earlier.status !== "pending") return { id: earlier.id, created: false, status: earlier.status };
  const id = await insertRequest(q, h, hash, now, new Date(now.getTime() + approvalTtlMs()));
  if (id) return { id, created: true, status: "pending" };
  const existing = await selectPendingRequestId(q, h.action, h.target, hash);
  if (!existing) throw new Error("approval request neither inserted nor pending");
  return { id: existing, created: false, status: "pending" };
}

/**
 * Expires pending requests whose time has passed (all of them, or the one `id`): each audited as approvals.expire,
 * and its operation told (a held movement shows EXPIRED). Returns the ids it expired.
 */
export async function expireDue(db: AppDb, o: { id?: string; now?: Date } = {}): Promise<string[]> {
  const now = o.now ?? new Date();
  const rows = await expireDueRequests(db.engine, now, o.id);
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

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
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
  const result = await selectRequestPage(db.engine, f, page);
  return { rows: result.rows.map(toListRow), nextCursor: result.nextCursor };
}

/**
 * When the recovery began checking an execution with the upstream (or, before it first came round, when the
 * execution's process last showed a sign of life plus the stuck limit); null while executing normally or settled.
 */
function checkingSince(r: DbRequest, now = Date.now()): string | null {
  if (r.status !== "executing") return null;
  if (r.checking_since) return iso(r.checking_since);
  const alive = r.alive_at ?? r.decided_at;
  const stuckAt = alive ? new Date(alive).getTime() + STUCK_AFTER_MS : undefined;
  return stuckAt !== undefined && stuckAt <= now ? new Date(stuckAt).toISOString() : null;
}

/** The account ids a stored request names (`account_id`, `from_account`, …), to show them by number. */
const accountIdsIn = (v: unknown, key = ""): string[] =>
  Array.isArray(v)
    ? v.flatMap((x) => accountIdsIn(x, key))
    : v && typeof v === "object"
      ? Object.entries(v).flatMap(([k, x]) => accountIdsIn(x, k))
      : typeof v === "string" && isAccountKey(key)
        ? [v]
        : [];

export async function getApproval(db: AppDb, id: string): Promise<ApprovalDetail> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new NotFoundError("This approval request does not exist.");
  await expireDue(db, { id });
  const r = await selectRequest(db.engine, id);
  if (!r) throw new NotFoundError("This approval request does not exist.");
  const [decisions, numbers] = await Promise.all([selectDecisions(db.engine, id), accountNumbers(db.engine, accountIdsIn(r.payload))]);
  return {
    ...toListRow(r),
    target: r.target,
    payload: r.payload,
    clientRequestId: r.client_request_id,
    payloadHash: r.payload_hash,
    accountNumbers: Object.fromEntries(numbers),
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
    checkingSince: checkingSince(r),
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
  const ids = await selectRequestIdsOf(db.engine, clientRequestId, actions);
  return Promise.all(ids.map((id) => getApproval(db, id)));
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
