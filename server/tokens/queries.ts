import "server-only";
import type { TokenView } from "@/lib/schemas/token-list";
import type { TokenScope } from "@/lib/schemas/tokens";
import type { Queryable } from "@/server/db/engine";
import { ROLE_OF_STAFF } from "@/server/auth/queries";
import { keysetPage } from "@/server/db/keyset";
import { MUST_ENROL } from "@/server/two-factor/queries";

/**
 * The tokens domain's SQL: staff access tokens (table brokerdesk.staff_tokens, migration 0070), and what every table of
 * staff credentials shares (the command line's access keys' too): the call window, the state, revoking, the page.
 */

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

/** A staff credential's owner as a call finds them (a token's, an access key's): their role read now. */
export interface CredentialOwner {
  staffId: string;
  email: string;
  name: string;
  role: string;
  roleLabel: string | null;
  rolePermissions: string[] | null;
}

/** The columns of a `CredentialOwner` from the staff row `alias` (`brokerdesk.staff_users`). */
export const CREDENTIAL_OWNER = (alias: string) =>
  `${alias}.id AS "staffId", ${alias}.email, ${alias}.name, ${alias}.role, ${ROLE_OF_STAFF(alias)}`;

/** A token presented by a caller, as one call found it (the owner's role read now). */
export interface TokenCall extends CredentialOwner {
  id: string;
  scopes: TokenScope[];
  windowStartedAt: Date;
  windowCalls: number;
  /** The owner's role requires two-factor sign-in and they have not enrolled (as read by the same statement). */
  mustEnrol: boolean;
}

/**
 * The SET list that counts a call in a staff credential's one-minute window (a token's, an access key's; `alias` its
 * table's), the statement's $2 being the time, $3 the address and $4 the limit: a new window when the last one is
 * over, and the use (time, address) recorded while the window's calls are within the limit.
 */
export function minuteWindowSet(alias: string): string {
  const inWindow = `${alias}.window_started_at > $2::timestamptz - interval '1 minute'`;
  const full = `${inWindow} AND ${alias}.window_calls >= $4`;
  return `window_started_at = CASE WHEN ${inWindow} THEN ${alias}.window_started_at ELSE $2 END,
       window_calls = CASE WHEN ${inWindow} THEN ${alias}.window_calls + 1 ELSE 1 END,
       last_used_at = CASE WHEN ${full} THEN ${alias}.last_used_at ELSE $2 END,
       last_used_ip = CASE WHEN ${full} THEN ${alias}.last_used_ip ELSE $3 END`;
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
    `UPDATE brokerdesk.staff_tokens t SET ${minuteWindowSet("t")}
     FROM brokerdesk.staff_users s
     WHERE t.token_hash = $1 AND s.id = t.staff_id AND t.revoked_at IS NULL AND t.expires_at > $2 AND NOT s.disabled
     RETURNING t.id, t.scopes, t.window_started_at AS "windowStartedAt", t.window_calls AS "windowCalls", ${CREDENTIAL_OWNER("s")},
       ${MUST_ENROL("s")} AS "mustEnrol"`,
    [hash, call.now, call.ip, call.limit],
  );
  return rows[0];
}

/** What every list of staff credentials shows of one (a token, an access key), with its owner and who revoked it. */
export interface CredentialPageRow {
  id: string;
  name: string;
  scopes: TokenScope[];
  created_at: Date | string;
  last_used_at: Date | string | null;
  last_used_ip: string | null;
  revoked_at: Date | string | null;
  revoked_by_email: string | null;
  owner_id: string;
  owner_email: string;
  owner_name: string;
}

/** The tables of staff credentials (access tokens, the command line's access keys): the same columns, by design. */
export type CredentialTable = "staff_tokens" | "cli_access_keys";

/** Whose a staff credential is and whether it is revoked; undefined when it is not there. */
export async function selectCredentialState(
  q: Queryable,
  table: CredentialTable,
  id: string,
): Promise<{ staffId: string; revokedAt: Date | null } | undefined> {
  const { rows } = await q.query<{ staffId: string; revokedAt: Date | null }>(
    `SELECT staff_id AS "staffId", revoked_at AS "revokedAt" FROM brokerdesk.${table} WHERE id = $1`,
    [id],
  );
  return rows[0];
}

/** Revokes a staff credential not revoked yet; false when it was (or is not there). */
export async function revokeCredentialRow(q: Queryable, table: CredentialTable, id: string, by: string, at: Date): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.${table} SET revoked_at = $3, revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
    [id, by, at],
  );
  return rows.length === 1;
}

/**
 * One keyset page of a table of staff credentials, newest first: one staff member's, or everyone's; `extra` names
 * more of the table's columns (`c.`).
 */
export function selectCredentialPage<R extends CredentialPageRow>(
  q: Queryable,
  table: CredentialTable,
  extra: string[],
  query: { view: TokenView; staffId: string; cursor?: string; limit: number },
): Promise<{ rows: R[]; nextCursor?: string }> {
  const mine = query.view === "mine";
  return keysetPage<R>(q, {
    columns: [
      "c.id, c.name, c.scopes, c.created_at, c.last_used_at, c.last_used_ip, c.revoked_at",
      ...extra,
      "r.email AS revoked_by_email, o.id AS owner_id, o.email AS owner_email, o.name AS owner_name",
    ].join(", "),
    from: `brokerdesk.${table} c JOIN brokerdesk.staff_users o ON o.id = c.staff_id
      LEFT JOIN brokerdesk.staff_users r ON r.id = c.revoked_by`,
    where: mine ? ["c.staff_id = $1"] : [],
    params: mine ? [query.staffId] : [],
    sort: "c.created_at",
    tiebreak: "c.id",
    desc: true,
    cursor: query.cursor,
    limit: query.limit,
  });
}

export interface TokenPageRow extends CredentialPageRow {
  prefix: string;
  expires_at: Date | string;
}

/** One keyset page of tokens, newest first: one staff member's, or everyone's. */
export function selectTokenPage(
  q: Queryable,
  query: { view: TokenView; staffId: string; cursor?: string; limit: number },
): Promise<{ rows: TokenPageRow[]; nextCursor?: string }> {
  return selectCredentialPage<TokenPageRow>(q, "staff_tokens", ["c.prefix", "c.expires_at"], query);
}
