import "server-only";
import type { TokenView } from "@/lib/schemas/token-list";
import type { TokenScope } from "@/lib/schemas/tokens";
import type { Queryable } from "@/server/db/engine";
import { keysetPage } from "@/server/db/keyset";

/** The tokens domain's SQL: staff access tokens (table brokerdesk.staff_tokens, migration 0070). */

export interface TokenRecord {
  id: string;
  staffId: string;
  name: string;
  prefix: string;
  scopes: TokenScope[];
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

const RECORD_COLUMNS = `id, staff_id AS "staffId", name, prefix, scopes, created_at AS "createdAt", expires_at AS "expiresAt",
  revoked_at AS "revokedAt"`;

/**
 * The new token, or undefined when its owner already holds `maxActive` tokens that are neither revoked nor expired
 * (counted in the same statement).
 */
export async function insertToken(
  q: Queryable,
  t: { staffId: string; name: string; hash: string; prefix: string; scopes: TokenScope[]; createdAt: Date; expiresAt: Date },
  maxActive: number,
): Promise<TokenRecord | undefined> {
  const { rows } = await q.query<TokenRecord>(
    `INSERT INTO brokerdesk.staff_tokens (staff_id, name, token_hash, prefix, scopes, created_at, expires_at)
     SELECT $1, $2, $3, $4, $5::text[], $6, $7
     WHERE (SELECT count(*) FROM brokerdesk.staff_tokens
            WHERE staff_id = $1 AND revoked_at IS NULL AND expires_at > $6) < $8
     RETURNING ${RECORD_COLUMNS}`,
    [t.staffId, t.name, t.hash, t.prefix, t.scopes, t.createdAt, t.expiresAt, maxActive],
  );
  return rows[0];
}

export async function selectTokenById(q: Queryable, id: string): Promise<TokenRecord | undefined> {
  const { rows } = await q.query<TokenRecord>(`SELECT ${RECORD_COLUMNS} FROM brokerdesk.staff_tokens WHERE id = $1`, [id]);
  return rows[0];
}

/** Revokes a token not revoked yet; undefined when it was (or is not there). */
export async function revokeTokenRow(q: Queryable, id: string, by: string, at: Date): Promise<TokenRecord | undefined> {
  const { rows } = await q.query<TokenRecord>(
    `UPDATE brokerdesk.staff_tokens SET revoked_at = $3, revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL
     RETURNING ${RECORD_COLUMNS}`,
    [id, by, at],
  );
  return rows[0];
}

/** A token presented by a caller, as one call found it (the owner's role read now). */
export interface TokenCall {
  id: string;
  scopes: TokenScope[];
  windowStartedAt: Date;
  windowCalls: number;
  staffId: string;
  email: string;
  name: string;
  role: string;
}

/**
 * One call with the token of this hash, in one statement: found only when it is neither revoked nor expired at
 * `now` and its owner is not disabled; counts the call in the token's one-minute window (a new window when the last
 * one is over) and, while the window's calls are within `limit`, records the use (time, address). Row-locked, so
 * concurrent calls on any app instance each count. The caller compares `windowCalls` with the limit.
 */
export async function recordTokenCall(
  q: Queryable,
  hash: string,
  call: { now: Date; ip: string | null; limit: number },
): Promise<TokenCall | undefined> {
  const { rows } = await q.query<TokenCall>(
    `UPDATE brokerdesk.staff_tokens t SET
       window_started_at = CASE WHEN t.window_started_at > $2::timestamptz - interval '1 minute' THEN t.window_started_at ELSE $2 END,
       window_calls = CASE WHEN t.window_started_at > $2::timestamptz - interval '1 minute' THEN t.window_calls + 1 ELSE 1 END,
       last_used_at = CASE WHEN t.window_started_at > $2::timestamptz - interval '1 minute' AND t.window_calls >= $4
                           THEN t.last_used_at ELSE $2 END,
       last_used_ip = CASE WHEN t.window_started_at > $2::timestamptz - interval '1 minute' AND t.window_calls >= $4
                           THEN t.last_used_ip ELSE $3 END
     FROM brokerdesk.staff_users s
     WHERE t.token_hash = $1 AND s.id = t.staff_id AND t.revoked_at IS NULL AND t.expires_at > $2 AND NOT s.disabled
     RETURNING t.id, t.scopes, t.window_started_at AS "windowStartedAt", t.window_calls AS "windowCalls",
       s.id AS "staffId", s.email, s.name, s.role`,
    [hash, call.now, call.ip, call.limit],
  );
  return rows[0];
}

export interface TokenPageRow {
  id: string;
  name: string;
  prefix: string;
  scopes: TokenScope[];
  created_at: Date | string;
  expires_at: Date | string;
  last_used_at: Date | string | null;
  last_used_ip: string | null;
  revoked_at: Date | string | null;
  revoked_by_email: string | null;
  owner_id: string;
  owner_email: string;
  owner_name: string;
}

/** One keyset page of tokens, newest first: one staff member's, or everyone's. */
export function selectTokenPage(
  q: Queryable,
  query: { view: TokenView; staffId: string; cursor?: string; limit: number },
): Promise<{ rows: TokenPageRow[]; nextCursor?: string }> {
  const mine = query.view === "mine";
  return keysetPage<TokenPageRow>(q, {
    columns: `t.id, t.name, t.prefix, t.scopes, t.created_at, t.expires_at, t.last_used_at, t.last_used_ip, t.revoked_at,
      r.email AS revoked_by_email, o.id AS owner_id, o.email AS owner_email, o.name AS owner_name`,
    from: `brokerdesk.staff_tokens t JOIN brokerdesk.staff_users o ON o.id = t.staff_id
      LEFT JOIN brokerdesk.staff_users r ON r.id = t.revoked_by`,
    where: mine ? ["t.staff_id = $1"] : [],
    params: mine ? [query.staffId] : [],
    sort: "t.created_at",
    tiebreak: "t.id",
    desc: true,
    cursor: query.cursor,
    limit: query.limit,
  });
}
