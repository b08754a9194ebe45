import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The two-factor domain's SQL: authenticators (staff_totp), wrong codes (totp_failures), roles that require one (migration 0080). */

export interface TotpRecord {
  secretSealed: string;
  createdAt: Date;
  confirmedAt: Date | null;
  lastStep: number | null;
}

const TOTP_COLUMNS = `secret_sealed AS "secretSealed", created_at AS "createdAt", confirmed_at AS "confirmedAt",
  last_step::float8 AS "lastStep"`;

export async function selectTotp(q: Queryable, staffId: string): Promise<TotpRecord | undefined> {
  const { rows } = await q.query<TotpRecord>(`SELECT ${TOTP_COLUMNS} FROM brokerdesk.staff_totp WHERE staff_id = $1`, [staffId]);
  return rows[0];
}

/** The row locked until the transaction ends: one code check at a time per staff member. */
export async function selectTotpForUpdate(q: Queryable, staffId: string): Promise<TotpRecord | undefined> {
  const { rows } = await q.query<TotpRecord>(`SELECT ${TOTP_COLUMNS} FROM brokerdesk.staff_totp WHERE staff_id = $1 FOR UPDATE`, [staffId]);
  return rows[0];
}

/** A new pending secret, replacing a pending one; false when a confirmed authenticator is there (disable it first). */
export async function upsertPendingTotp(q: Queryable, staffId: string, secretSealed: string, at: Date): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO brokerdesk.staff_totp (staff_id, secret_sealed, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (staff_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, created_at = EXCLUDED.created_at, last_step = NULL
       WHERE brokerdesk.staff_totp.confirmed_at IS NULL
     RETURNING staff_id`,
    [staffId, secretSealed, at],
  );
  return rows.length === 1;
}

export async function confirmTotpRow(q: Queryable, staffId: string, step: number, at: Date): Promise<void> {
  await q.query(`UPDATE brokerdesk.staff_totp SET confirmed_at = $3, last_step = $2 WHERE staff_id = $1 AND confirmed_at IS NULL`, [
    staffId,
    step,
    at,
  ]);
}

export async function updateTotpStep(q: Queryable, staffId: string, step: number): Promise<void> {
  await q.query(`UPDATE brokerdesk.staff_totp SET last_step = $2 WHERE staff_id = $1`, [staffId, step]);
}

/** Removes the staff member's authenticator (pending or confirmed) and their wrong codes; whether there was one. */
export async function deleteTotp(q: Queryable, staffId: string): Promise<boolean> {
  await q.query(`DELETE FROM brokerdesk.totp_failures WHERE staff_id = $1`, [staffId]);
  const { rows } = await q.query(`DELETE FROM brokerdesk.staff_totp WHERE staff_id = $1 RETURNING staff_id`, [staffId]);
  return rows.length === 1;
}

/** Wrong codes since `since` (after removing older ones), and the oldest of them. */
export async function selectRecentFailures(q: Queryable, staffId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
  await q.query(`DELETE FROM brokerdesk.totp_failures WHERE staff_id = $1 AND at <= $2`, [staffId, since]);
  const { rows } = await q.query<{ count: number; oldest: Date | null }>(
    `SELECT count(*)::int AS count, min(at) AS oldest FROM brokerdesk.totp_failures WHERE staff_id = $1`,
    [staffId],
  );
  return rows[0];
}

export async function insertFailure(q: Queryable, staffId: string, at: Date): Promise<void> {
  await q.query(`INSERT INTO brokerdesk.totp_failures (staff_id, at) VALUES ($1, $2)`, [staffId, at]);
}

export async function selectRequiredRoles(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ role: string }>(`SELECT role FROM brokerdesk.role_two_factor WHERE required ORDER BY role`);
  return rows.map((r) => r.role);
}

/** Sets, for every role, whether it requires two-factor sign-in (the roles named do, the others do not). */
export async function saveRequiredRoles(
  q: Queryable,
  roles: readonly string[],
  all: readonly string[],
  by: string,
  at: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO brokerdesk.role_two_factor (role, required, updated_at, updated_by)
     SELECT r, r = ANY ($2::text[]), $4, $3 FROM unnest($1::text[]) AS r
     ON CONFLICT (role) DO UPDATE SET required = EXCLUDED.required, updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by`,
    [all, roles, by, at],
  );
}

/**
 * Whether the staff row `alias` (`brokerdesk.staff_users`) must enrol: its role requires an authenticator and it
 * has no confirmed one (a column of a statement that reads the row anyway, as a token's call does).
 */
export const MUST_ENROL = (alias: string) =>
  `(EXISTS (SELECT 1 FROM brokerdesk.role_two_factor rf WHERE rf.role = ${alias}.role AND rf.required)
    AND NOT EXISTS (SELECT 1 FROM brokerdesk.staff_totp st WHERE st.staff_id = ${alias}.id AND st.confirmed_at IS NOT NULL))`;

/** Whether the staff member's role requires an authenticator and they have no confirmed one. */
export async function selectMustEnrol(q: Queryable, staffId: string, role: string): Promise<boolean> {
  const { rows } = await q.query<{ must: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM brokerdesk.role_two_factor WHERE role = $2 AND required)
       AND NOT EXISTS (SELECT 1 FROM brokerdesk.staff_totp WHERE staff_id = $1 AND confirmed_at IS NOT NULL) AS must`,
    [staffId, role],
  );
  return rows[0]?.must ?? false;
}

export async function selectRoleRequires(q: Queryable, role: string): Promise<boolean> {
  const { rows } = await q.query<{ required: boolean }>(`SELECT required FROM brokerdesk.role_two_factor WHERE role = $1`, [role]);
  return rows[0]?.required ?? false;
}
