import "server-only";
import type { AuditFilter, AuditSort } from "@/lib/schemas/audit";
import type { Sort } from "@/lib/list-params";
import type { Queryable } from "@/server/db/engine";
import { keysetPage } from "@/server/db/keyset";
import type { AuditRow } from "./entry";

/** The audit domain's SQL: the trail (brokerdesk.audit_entries) and its checkpoints (brokerdesk.audit_checkpoints). */

const COLUMNS = `seq, at, actor_id, actor_email, actor_role, action, target, input, upstream_request_id, idempotency_key,
  outcome, error_code, client_ip, user_agent, channel, token_id, prev_hash, hash`;

interface DbRow {
  seq: string | number;
  at: Date | string;
  actor_id: string | null;
  actor_email: string | null;
  actor_role: string | null;
  action: string;
  target: string | null;
  input: unknown;
  upstream_request_id: string | null;
  idempotency_key: string | null;
  outcome: AuditRow["outcome"];
  error_code: string | null;
  client_ip: string | null;
  user_agent: string | null;
  channel: AuditRow["channel"];
  token_id: string | null;
  prev_hash: string;
  hash: string;
}

function toRow(r: DbRow): AuditRow {
  return {
    seq: Number(r.seq),
    at: new Date(r.at),
    actorId: r.actor_id,
    actorEmail: r.actor_email,
    actorRole: r.actor_role,
    action: r.action,
    target: r.target,
    input: typeof r.input === "string" ? JSON.parse(r.input) : r.input,
    upstreamRequestId: r.upstream_request_id,
    idempotencyKey: r.idempotency_key,
    outcome: r.outcome,
    errorCode: r.error_code,
    clientIp: r.client_ip,
    userAgent: r.user_agent,
    channel: r.channel,
    tokenId: r.token_id,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

/** Takes the chain's lock for the transaction: one writer at a time extends it, across every app instance. */
export async function lockChain(tx: Queryable): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('brokerdesk.audit_chain'))");
}

/** The hash of the newest entry, or undefined on an empty trail. */
export async function selectLastHash(tx: Queryable): Promise<string | undefined> {
  const { rows } = await tx.query<{ hash: string }>("SELECT hash FROM brokerdesk.audit_entries ORDER BY seq DESC LIMIT 1");
  return rows[0]?.hash;
}

/** Writes one entry (its input already JSON or null); returns its seq. */
export async function insertEntry(tx: Queryable, e: Omit<AuditRow, "seq" | "input"> & { inputJson: string | null }): Promise<number> {
  const { rows } = await tx.query<{ seq: string }>(
    `INSERT INTO brokerdesk.audit_entries (at, actor_id, actor_email, actor_role, action, target, input, upstream_request_id,
       idempotency_key, outcome, error_code, client_ip, user_agent, channel, token_id, prev_hash, hash)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17) RETURNING seq`,
    [
      e.at,
      e.actorId,
      e.actorEmail,
      e.actorRole,
      e.action,
      e.target,
      e.inputJson,
      e.upstreamRequestId,
      e.idempotencyKey,
      e.outcome,
      e.errorCode,
      e.clientIp,
      e.userAgent,
      e.channel,
      e.tokenId,
      e.prevHash,
      e.hash,
    ],
  );
  return Number(rows[0].seq);
}

/** One entry, or undefined. */
export async function selectEntry(q: Queryable, seq: number): Promise<AuditRow | undefined> {
  const { rows } = await q.query<DbRow>(`SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE seq = $1`, [seq]);
  return rows[0] ? toRow(rows[0]) : undefined;
}

/** Up to `limit` entries after `afterSeq`, in chain order. */
export async function selectEntriesAfter(q: Queryable, afterSeq: number, limit: number): Promise<AuditRow[]> {
  const { rows } = await q.query<DbRow>(`SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE seq > $1 ORDER BY seq LIMIT $2`, [
    afterSeq,
    limit,
  ]);
  return rows.map(toRow);
}

/** The newest verified mark: `(seq, hash)` of an entry the chain was found intact through. */
export async function lastCheckpoint(q: Queryable): Promise<{ seq: number; hash: string } | undefined> {
  const { rows } = await q.query<{ seq: string; hash: string }>(
    "SELECT seq::text AS seq, hash FROM brokerdesk.audit_checkpoints ORDER BY audit_checkpoints.seq DESC LIMIT 1",
  );
  return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : undefined;
}

/** Marks the chain verified through `(seq, hash)` (checkpoints are append-only, like the trail). */
export async function insertCheckpoint(q: Queryable, c: { seq: number; hash: string; mode: string; checked: number }): Promise<void> {
  await q.query(
    "INSERT INTO brokerdesk.audit_checkpoints (seq, hash, mode, checked) VALUES ($1, $2, $3, $4) ON CONFLICT (seq) DO NOTHING",
    [c.seq, c.hash, c.mode, c.checked],
  );
}

// Each order is an expression plus seq as the tiebreak, so keyset paging holds in every order.
const SORT_SQL: Record<AuditSort, string> = {
  seq: "seq",
  action: "action",
  actor: "COALESCE(actor_email, '')",
};

/** The first string after every string that starts with `prefix` (byte-wise, as text_pattern_ops compares). */
function prefixEnd(prefix: string): string {
  const chars = Array.from(prefix);
  const last = chars.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) return `${prefix}\u{10FFFF}`;
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1; // UTF-8 (and so the byte order) has no surrogates
  return chars.join("") + String.fromCodePoint(next);
}

/**
 * A maker's or checker's own acts on an approval request, as the actor: deciding it (approve, reject) or withdrawing
 * it (the maker). The held entry is the maker's too; the execution and the expiry name them in their input.
 */
const APPROVAL_ACTS = ["approvals.approve", "approvals.reject", "approvals.withdraw"];

/**
 * The filter as SQL conditions numbered against `params`, each written so an index serves it (migration 0031):
 * prefixes as byte-wise ranges (`~>=~`, `~<~`: text_pattern_ops, planned the same with or without a value).
 */
export function auditConditions(f: AuditFilter, params: unknown[] = []): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const prefix = (column: string, value: string) => `(${column} ~>=~ ${p(value)} AND ${column} ~<~ ${p(prefixEnd(value))})`;
  if (f.action) {
    const stem = f.action.endsWith("*") ? f.action.slice(0, -1) : f.action;
    where.push(stem && (f.action.endsWith("*") || f.action.endsWith(".")) ? prefix("action", stem) : `action = ${p(stem || f.action)}`);
  }
  if (f.actor) where.push(/^[^@\s]+@[^@\s]+$/.test(f.actor) ? `actor_email = ${p(f.actor)}` : prefix("actor_email", f.actor));
  if (f.role) where.push(`actor_role = ${p(f.role)}`);
  if (f.outcome) where.push(`outcome = ${p(f.outcome)}`);
  if (f.target) {
    where.push(
      f.target.includes(":")
        ? `target = ${p(f.target)}`
        : `(target = ${p(`account:${f.target}`)} OR ${prefix("target", `order:${f.target}:`)})`,
    );
  }
  if (f.party) {
    const email = p(f.party);
    where.push(
      `((input ->> 'maker') = ${email} OR (input ->> 'checker') = ${email}
        OR (actor_email = ${email} AND (outcome = 'held' OR action IN (${APPROVAL_ACTS.map((a) => p(a)).join(", ")}))))`,
    );
  }
  if (f.request) where.push(`upstream_request_id = ${p(f.request)}`);
  if (f.from) where.push(`at >= ${p(new Date(`${f.from}T00:00:00Z`))}`);
  if (f.to) where.push(`at < ${p(new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000))}`);
  return { where, params };
}

/** One keyset page of the trail under the filter, in the given order. */
export async function selectAuditPage(
  q: Queryable,
  query: AuditFilter & { sort: Sort<AuditSort>; cursor?: string; limit: number },
): Promise<{ rows: AuditRow[]; nextCursor?: string }> {
  const { where, params } = auditConditions(query);
  const { rows, nextCursor } = await keysetPage<DbRow>(q, {
    columns: COLUMNS,
    from: "brokerdesk.audit_entries",
    where,
    params,
    sort: SORT_SQL[query.sort.id],
    tiebreak: "seq",
    desc: query.sort.desc,
    cursor: query.cursor,
    limit: query.limit,
  });
  return { rows: rows.map(toRow), nextCursor };
}

/** Other entries of the same upstream request, newest first (at most 20). */
export async function selectSameRequest(q: Queryable, upstreamRequestId: string, exceptSeq: number): Promise<AuditRow[]> {
  const { rows } = await q.query<DbRow>(
    `SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE upstream_request_id = $1 AND seq <> $2 ORDER BY seq DESC LIMIT 20`,
    [upstreamRequestId, exceptSeq],
  );
  return rows.map(toRow);
}

/** Up to `limit` entries of the target nearest before (newest first) or after (oldest first) `seq`. */
export async function selectSameTarget(
  q: Queryable,
  target: string,
  seq: number,
  side: "before" | "after",
  limit: number,
): Promise<AuditRow[]> {
  const { rows } = await q.query<DbRow>(
    side === "before"
      ? `SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE target = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`
      : `SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE target = $1 AND seq > $2 ORDER BY seq ASC LIMIT $3`,
    [target, seq, limit],
  );
  return rows.map(toRow);
}
