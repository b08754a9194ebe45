import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The broker domain's SQL: the upstream access token (table brokerdesk.broker_tokens), one row per token created. */

export interface TokenRow {
  token: string;
  /** Upstream status, raw: PENDING | NORMAL | EXPIRED | INVALID or a newer value. */
  status: string;
  expiresAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  checkedAt: Date;
}

const TOKEN_COLUMNS = `token, status, expires_at AS "expiresAt", created_by AS "createdBy", created_at AS "createdAt", checked_at AS "checkedAt"`;

export async function selectLatestToken(q: Queryable, baseUrl: string, appKey: string): Promise<TokenRow | undefined> {
  const { rows } = await q.query<TokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM brokerdesk.broker_tokens WHERE base_url = $1 AND app_key = $2 ORDER BY created_at DESC LIMIT 1`,
    [baseUrl, appKey],
  );
  return rows[0];
}

export async function insertToken(
  q: Queryable,
  row: { baseUrl: string; appKey: string; token: string; status: string; expiresAt: Date | null; createdBy: string | null },
): Promise<TokenRow> {
  const { rows } = await q.query<TokenRow>(
    `INSERT INTO brokerdesk.broker_tokens (base_url, app_key, token, status, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${TOKEN_COLUMNS}`,
    [row.baseUrl, row.appKey, row.token, row.status, row.expiresAt, row.createdBy],
  );
  return rows[0];
}

/** Updates the row of `token` in the scope (a refresh may replace the token string itself) and its checked_at. */
export async function updateToken(
  q: Queryable,
  scope: { baseUrl: string; appKey: string },
  token: string,
  patch: { token: string; status: string; expiresAt: Date | null },
): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.broker_tokens SET token = $4, status = $5, expires_at = $6, checked_at = now()
     WHERE base_url = $1 AND app_key = $2 AND token = $3`,
    [scope.baseUrl, scope.appKey, token, patch.token, patch.status, patch.expiresAt],
  );
}
