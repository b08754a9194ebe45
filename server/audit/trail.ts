import "server-only";
import { createHash } from "node:crypto";
import type { AppDb } from "@/server/db";
import type { Sort } from "@/lib/list-params";
import type { AuditFilter, AuditSort } from "@/lib/schemas/audit";
import type { Queryable } from "@/server/db/engine";
import { keysetPage } from "@/server/db/keyset";

/**
 * The staff audit trail: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE) and hash-chained, so that
 * a change made behind the trigger's back (by a superuser, on the disk) is found by verifyAuditChain().
 */
export interface AuditInput {
  actorId?: string | null;
  actorEmail?: string | null;
  actorRole?: string | null;
  action: string;
  target?: string | null;
  input?: unknown;
  upstreamRequestId?: string | null;
  idempotencyKey?: string | null;
  /** "held": an approval policy stopped the work and asked for a second person's approval (action-kit/define-action.ts). */
  outcome: AuditOutcome;
  errorCode?: string | null;
  clientIp?: string | null;
  userAgent?: string | null;
}

export type AuditOutcome = "success" | "failure" | "denied" | "held";

export interface AuditRow extends Required<Omit<AuditInput, "input">> {
  seq: number;
  at: Date;
  input: unknown;
  prevHash: string;
  hash: string;
}

export const GENESIS_HASH = "0".repeat(64);

// Secrets, and the PII that is masked for most roles (tax ids, addresses, identity document numbers): the trail is
// read by compliance and exported, so it must not become a way around the masking.
const SECRET_KEY = /pass(word)?|secret|token|signature|tax_?id|address|id_number|^otp$/i;

/** Removes secrets and masked PII from an action's input before it is written. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEY.test(k) ? "[redacted]" : redactSecrets(v)]),
    );
  }
  return value;
}

/** JSON with sorted keys, so the same entry always hashes the same way (jsonb reorders keys). */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const keys = Object.keys(value as object)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function entryHash(prevHash: string, e: Omit<AuditRow, "seq" | "hash" | "prevHash">): string {
  const body = canonicalJson({
    at: e.at.toISOString(),
    actorId: e.actorId,
    actorEmail: e.actorEmail,
    actorRole: e.actorRole,
    action: e.action,
    target: e.target,
    input: e.input,
    upstreamRequestId: e.upstreamRequestId,
    idempotencyKey: e.idempotencyKey,
    outcome: e.outcome,
    errorCode: e.errorCode,
    clientIp: e.clientIp,
    userAgent: e.userAgent,
  });
  return createHash("sha256").update(`${prevHash}\n${body}`).digest("hex");
}

const COLUMNS = `seq, at, actor_id, actor_email, actor_role, action, target, input, upstream_request_id, idempotency_key,
  outcome, error_code, client_ip, user_agent, prev_hash, hash`;

/** The most of an input an entry keeps: a denied or invalid call's raw input is whatever the caller sent. */
export const MAX_AUDIT_INPUT_BYTES = 8 * 1024;

/** NUL cannot be stored in jsonb: a NUL in any string or key of an input is kept as U+FFFD. */
function withoutNul(value: unknown): unknown {
  if (typeof value === "string") return value.includes("\u0000") ? value.replaceAll("\u0000", "\uFFFD") : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k.replaceAll("\u0000", "\uFFFD"), withoutNul(v)]),
    );
  }
  return value;
}

/** The input as stored: itself when small, else its size and a readable beginning (the trail is append-only). */
export function boundedInput(value: unknown): unknown {
  const json = JSON.stringify(withoutNul(value)) ?? "null";
  if (Buffer.byteLength(json) <= MAX_AUDIT_INPUT_BYTES) return JSON.parse(json);
  return { truncated: true, bytes: Buffer.byteLength(json), preview: json.slice(0, 1024) };
}

export async function appendAudit(db: AppDb, input: AuditInput): Promise<AuditRow> {
  return db.engine.transaction(async (tx) => {
    // One writer at a time extends the chain, across every app instance sharing the database.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('brokerdesk.audit_chain'))");
    const last = await tx.query<{ hash: string }>("SELECT hash FROM brokerdesk.audit_entries ORDER BY seq DESC LIMIT 1");
    const prevHash = last.rows[0]?.hash ?? GENESIS_HASH;
    const entry = {
      at: new Date(),
      actorId: input.actorId ?? null,
      actorEmail: input.actorEmail ?? null,
      actorRole: input.actorRole ?? null,
      action: input.action,
      target: input.target ?? null,
      // Round-trip through JSON so the hashed value is exactly what jsonb stores (no undefined, no Dates).
      input: input.input === undefined ? null : boundedInput(redactSecrets(input.input)),
      upstreamRequestId: input.upstreamRequestId ?? null,
      idempotencyKey: input.idempotencyKey ?? null,
      outcome: input.outcome,
      errorCode: input.errorCode ?? null,
      clientIp: input.clientIp ?? null,
      userAgent: input.userAgent ?? null,
    };
    const hash = entryHash(prevHash, entry);
    const { rows } = await tx.query<{ seq: string }>(
      `INSERT INTO brokerdesk.audit_entries (at, actor_id, actor_email, actor_role, action, target, input, upstream_request_id,
         idempotency_key, outcome, error_code, client_ip, user_agent, prev_hash, hash)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15) RETURNING seq`,
      [
        entry.at,
        entry.actorId,
        entry.actorEmail,
        entry.actorRole,
        entry.action,
        entry.target,
        entry.input === null ? null : JSON.stringify(entry.input),
        entry.upstreamRequestId,
        entry.idempotencyKey,
        entry.outcome,
        entry.errorCode,
        entry.clientIp,
        entry.userAgent,
        prevHash,
        hash,
      ],
    );
    return { seq: Number(rows[0].seq), ...entry, prevHash, hash };
  });
}

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
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

export type VerifyMode = "full" | "incremental";

/**
 * `entries`: how many entries this verification read and checked; `throughSeq`: the last entry it vouches for;
 * `fromSeq`: the checkpoint it started after (incremental; 0 = the start of the chain).
 */
export type ChainVerdict =
  | { ok: true; mode: VerifyMode; entries: number; fromSeq: number; throughSeq: number }
  | { ok: false; mode: VerifyMode; entries: number; fromSeq: number; brokenSeq: number; reason: string };

export interface VerifyOptions {
  /** "full" walks the whole chain; "incremental" (default) starts after the last checkpoint. */
  mode?: VerifyMode;
  batch?: number;
  /** Write a checkpoint at the last entry when the verification holds (default true). */
  checkpoint?: boolean;
}

/** The newest verified mark: `(seq, hash)` of an entry the chain was found intact through. */
export async function lastCheckpoint(q: Queryable): Promise<{ seq: number; hash: string } | undefined> {
  const { rows } = await q.query<{ seq: string; hash: string }>(
    "SELECT seq::text AS seq, hash FROM brokerdesk.audit_checkpoints ORDER BY audit_checkpoints.seq DESC LIMIT 1",
  );
  return rows[0] ? { seq: Number(rows[0].seq), hash: rows[0].hash } : undefined;
}

/**
 * Verifies the chain and names the first entry whose hash or link does not hold. Incremental: re-checks that the last
 * checkpoint's entry still holds its content and the checkpoint's hash, then reads only the entries after it, so the
 * cost follows what was appended since, not the trail's length; a full walk stays available (and is what catches a
 * change made before the last checkpoint). A verification that holds writes a checkpoint at its last entry
 * (checkpoints are append-only, like the trail).
 */
export async function verifyAuditChain(q: Queryable, options: VerifyOptions = {}): Promise<ChainVerdict> {
  const mode = options.mode ?? "incremental";
  const batch = options.batch ?? 5000;
  let prevHash = GENESIS_HASH;
  let lastSeq = 0;
  let fromSeq = 0;
  let count = 0;
  if (mode === "incremental") {
    const mark = await lastCheckpoint(q);
    if (mark) {
      const { rows } = await q.query<DbRow>(`SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE seq = $1`, [mark.seq]);
      const at = rows[0] ? toRow(rows[0]) : undefined;
      count = 1;
      if (!at)
        return { ok: false, mode, entries: count, fromSeq: mark.seq, brokenSeq: mark.seq, reason: "the checkpoint's entry is missing" };
      if (at.hash !== mark.hash || entryHash(at.prevHash, at) !== at.hash) {
        return {
          ok: false,
          mode,
          entries: count,
          fromSeq: mark.seq,
          brokenSeq: mark.seq,
          reason: "the checkpoint's entry no longer matches its hash",
        };
      }
      prevHash = mark.hash;
      lastSeq = fromSeq = mark.seq;
    }
  }
  for (;;) {
    const { rows } = await q.query<DbRow>(`SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE seq > $1 ORDER BY seq LIMIT $2`, [
      lastSeq,
      batch,
    ]);
    for (const raw of rows) {
      const row = toRow(raw);
      count++;
      if (row.prevHash !== prevHash)
        return { ok: false, mode, entries: count, fromSeq, brokenSeq: row.seq, reason: "link to the previous entry is broken" };
      if (entryHash(prevHash, row) !== row.hash)
        return { ok: false, mode, entries: count, fromSeq, brokenSeq: row.seq, reason: "content does not match its hash" };
      prevHash = row.hash;
      lastSeq = row.seq;
    }
    if (rows.length < batch) break;
  }
  if (options.checkpoint !== false && lastSeq > fromSeq) {
    await q.query(
      "INSERT INTO brokerdesk.audit_checkpoints (seq, hash, mode, checked) VALUES ($1, $2, $3, $4) ON CONFLICT (seq) DO NOTHING",
      [lastSeq, prevHash, mode, count],
    );
  }
  return { ok: true, mode, entries: count, fromSeq, throughSeq: lastSeq };
}

export interface AuditQuery extends AuditFilter {
  /** Newest first by default. */
  sort?: Sort<AuditSort>;
  /** Keyset cursor from the previous page's `nextCursor`. */
  cursor?: string;
  limit?: number;
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

/** One page of the trail, filtered and sorted in SQL, with the cursor of the next page. */
export async function listAudit(q: Queryable, query: AuditQuery = {}): Promise<{ rows: AuditRow[]; nextCursor?: string }> {
  const { where, params } = auditConditions(query);
  const sort = query.sort ?? { id: "seq", desc: true };
  const { rows, nextCursor } = await keysetPage<DbRow>(q, {
    columns: COLUMNS,
    from: "brokerdesk.audit_entries",
    where,
    params,
    sort: SORT_SQL[sort.id],
    tiebreak: "seq",
    desc: sort.desc,
    cursor: query.cursor,
    limit: Math.min(Math.max(query.limit ?? 50, 1), 500),
  });
  return { rows: rows.map(toRow), nextCursor };
}

/** One entry, or undefined. */
export async function getAuditEntry(q: Queryable, seq: number): Promise<AuditRow | undefined> {
  const { rows } = await q.query<DbRow>(`SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE seq = $1`, [seq]);
  return rows[0] ? toRow(rows[0]) : undefined;
}

/**
 * What an entry's detail lists beside it: the other entries of the same upstream request, and the entries of the same
 * target nearest to it (up to `around` before and after), each newest first. Both read an index (migration 0031).
 */
export async function relatedAuditEntries(
  q: Queryable,
  entry: AuditRow,
  around = 5,
): Promise<{ sameRequest: AuditRow[]; sameTarget: AuditRow[] }> {
  const [sameRequest, before, after] = await Promise.all([
    entry.upstreamRequestId
      ? q.query<DbRow>(
          `SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE upstream_request_id = $1 AND seq <> $2 ORDER BY seq DESC LIMIT 20`,
          [entry.upstreamRequestId, entry.seq],
        )
      : { rows: [] as DbRow[] },
    entry.target
      ? q.query<DbRow>(`SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE target = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`, [
          entry.target,
          entry.seq,
          around,
        ])
      : { rows: [] as DbRow[] },
    entry.target
      ? q.query<DbRow>(`SELECT ${COLUMNS} FROM brokerdesk.audit_entries WHERE target = $1 AND seq > $2 ORDER BY seq ASC LIMIT $3`, [
          entry.target,
          entry.seq,
          around,
        ])
      : { rows: [] as DbRow[] },
  ]);
  return { sameRequest: sameRequest.rows.map(toRow), sameTarget: [...after.rows.reverse(), ...before.rows].map(toRow) };
}
