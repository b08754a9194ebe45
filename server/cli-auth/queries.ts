import "server-only";
import type { AccessKeyView } from "@/lib/schemas/access-key-list";
import type { TokenScope } from "@/lib/schemas/tokens";
import type { Queryable } from "@/server/db/engine";
import {
  CREDENTIAL_OWNER,
  minuteWindowSet,
  selectCredentialPage,
  type CredentialOwner,
  type CredentialPageRow,
} from "@/server/tokens/queries";

/** The command line's SQL: access keys, request nonces and sessions (tables of migration 0080). */

export interface AccessKeyRecord {
  id: string;
  staffId: string;
  name: string;
  scopes: TokenScope[];
  createdAt: Date;
  revokedAt: Date | null;
}

const RECORD_COLUMNS = `id, staff_id AS "staffId", name, scopes, created_at AS "createdAt", revoked_at AS "revokedAt"`;

/** The new key, or undefined when its owner already holds `maxActive` keys not revoked (counted in the same statement). */
export async function insertAccessKey(
  q: Queryable,
  k: { id: string; staffId: string; name: string; secretSealed: string; scopes: TokenScope[]; createdAt: Date },
  maxActive: number,
): Promise<AccessKeyRecord | undefined> {
  const { rows } = await q.query<AccessKeyRecord>(
    `INSERT INTO brokerdesk.cli_access_keys (id, staff_id, name, secret_sealed, scopes, created_at)
     SELECT $1, $2, $3, $4, $5::text[], $6
     WHERE (SELECT count(*) FROM brokerdesk.cli_access_keys WHERE staff_id = $2 AND revoked_at IS NULL) < $7
     RETURNING ${RECORD_COLUMNS}`,
    [k.id, k.staffId, k.name, k.secretSealed, k.scopes, k.createdAt, maxActive],
  );
  return rows[0];
}

/** Forgets a key's request nonces (when it is revoked: it signs no more requests). */
export async function deleteKeyNonces(q: Queryable, id: string): Promise<void> {
  await q.query(`DELETE FROM brokerdesk.cli_request_nonces WHERE key_id = $1`, [id]);
}

/** A key that may sign (not revoked, its owner not disabled), with its sealed secret and its owner as they are now. */
export interface SigningKeyRow extends CredentialOwner {
  id: string;
  secretSealed: string;
  scopes: TokenScope[];
}

export async function selectSigningKey(q: Queryable, id: string): Promise<SigningKeyRow | undefined> {
  const { rows } = await q.query<SigningKeyRow>(
    `SELECT k.id, k.secret_sealed AS "secretSealed", k.scopes, ${CREDENTIAL_OWNER("s")}
     FROM brokerdesk.cli_access_keys k JOIN brokerdesk.staff_users s ON s.id = k.staff_id
     WHERE k.id = $1 AND k.revoked_at IS NULL AND NOT s.disabled`,
    [id],
  );
  return rows[0];
}

/**
 * Counts a verified request in the key's one-minute window and, within `limit`, records its use (time, address), as
 * a token's call is counted. Row-locked: concurrent requests on any instance each count.
 */
export async function recordKeyCall(
  q: Queryable,
  id: string,
  call: { now: Date; ip: string | null; limit: number },
): Promise<{ windowStartedAt: Date; windowCalls: number } | undefined> {
  const { rows } = await q.query<{ windowStartedAt: Date; windowCalls: number }>(
    `UPDATE brokerdesk.cli_access_keys k SET ${minuteWindowSet("k")}
     WHERE k.id = $1
     RETURNING k.window_started_at AS "windowStartedAt", k.window_calls AS "windowCalls"`,
    [id, call.now, call.ip, call.limit],
  );
  return rows[0];
}

/**
 * Records a request's nonce for the key until `expiresAt`; false when the key used it before and that use has not
 * expired (a replay). The key's other expired nonces are removed in the same statement.
 */
export async function insertNonce(q: Queryable, keyId: string, nonce: string, now: Date, expiresAt: Date): Promise<boolean> {
  const { rows } = await q.query(
    `WITH pruned AS (DELETE FROM brokerdesk.cli_request_nonces WHERE key_id = $1 AND expires_at <= $3 AND nonce <> $2)
     INSERT INTO brokerdesk.cli_request_nonces (key_id, nonce, expires_at) VALUES ($1, $2, $4)
     ON CONFLICT (key_id, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at
       WHERE brokerdesk.cli_request_nonces.expires_at <= $3
     RETURNING key_id`,
    [keyId, nonce, now, expiresAt],
  );
  return rows.length === 1;
}

export async function insertCliSession(
  q: Queryable,
  s: { keyId: string; staffId: string; hash: string; createdAt: Date; expiresAt: Date },
): Promise<{ id: string }> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO brokerdesk.cli_sessions (key_id, staff_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
     RETURNING id`,
    [s.keyId, s.staffId, s.hash, s.createdAt, s.expiresAt],
  );
  return rows[0];
}

/** A live session of this hash made with this key: not expired or ended, its key not revoked, its owner not disabled. */
export async function selectLiveSession(
  q: Queryable,
  hash: string,
  keyId: string,
  now: Date,
): Promise<{ id: string; expiresAt: Date } | undefined> {
  const { rows } = await q.query<{ id: string; expiresAt: Date }>(
    `SELECT c.id, c.expires_at AS "expiresAt"
     FROM brokerdesk.cli_sessions c
       JOIN brokerdesk.cli_access_keys k ON k.id = c.key_id
       JOIN brokerdesk.staff_users s ON s.id = c.staff_id
     WHERE c.token_hash = $1 AND c.key_id = $2 AND c.expires_at > $3 AND c.ended_at IS NULL
       AND k.revoked_at IS NULL AND NOT s.disabled`,
    [hash, keyId, now],
  );
  return rows[0];
}

/** Ends every command-line session of a staff member (when they are disabled). */
export async function endCliSessionsOf(q: Queryable, staffId: string, at: Date): Promise<void> {
  await q.query(`UPDATE brokerdesk.cli_sessions SET ended_at = $2 WHERE staff_id = $1 AND ended_at IS NULL AND expires_at > $2`, [
    staffId,
    at,
  ]);
}

/** One keyset page of access keys, newest first: one staff member's, or everyone's. */
export function selectAccessKeyPage(
  q: Queryable,
  query: { view: AccessKeyView; staffId: string; cursor?: string; limit: number },
): Promise<{ rows: CredentialPageRow[]; nextCursor?: string }> {
  return selectCredentialPage<CredentialPageRow>(q, "cli_access_keys", [], query);
}
