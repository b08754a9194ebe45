import "server-only";
import type { Sort } from "@/lib/list-params";
import type { StaffRow, StaffSort } from "@/lib/schemas/staff-list";
import type { Queryable } from "@/server/db/engine";
import { keysetPage } from "@/server/db/keyset";

/** The auth domain's SQL: staff users (table brokerdesk.staff_users). */

export interface StaffUser {
  id: string;
  email: string;
  name: string;
  role: string;
  passwordHash: string;
  disabled: boolean;
  failedAttempts: number;
  lockedUntil: Date | null;
  lastSignInAt: Date | null;
  sessionsRevokedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** The role's row (migration 0130): its label, and a custom role's permissions (null for a built-in one). */
  roleLabel: string | null;
  rolePermissions: string[] | null;
}

/** The role's label and a custom role's permissions beside a staff row, as read now (a role changed applies at once). */
export const ROLE_OF_STAFF = (table: string) =>
  `(SELECT r.label FROM brokerdesk.staff_roles r WHERE r.key = ${table}.role) AS "roleLabel",
  (SELECT r.permissions FROM brokerdesk.staff_roles r WHERE r.key = ${table}.role) AS "rolePermissions"`;

const STAFF_COLUMNS = `id, email, name, role, password_hash AS "passwordHash", disabled, failed_attempts AS "failedAttempts",
  locked_until AS "lockedUntil", last_sign_in_at AS "lastSignInAt", sessions_revoked_at AS "sessionsRevokedAt",
  created_at AS "createdAt", updated_at AS "updatedAt", ${ROLE_OF_STAFF("staff_users")}`;

export async function selectStaffById(q: Queryable, id: string): Promise<StaffUser | undefined> {
  const { rows } = await q.query<StaffUser>(`SELECT ${STAFF_COLUMNS} FROM brokerdesk.staff_users WHERE id = $1`, [id]);
  return rows[0];
}

export async function selectStaffByEmail(q: Queryable, email: string): Promise<StaffUser | undefined> {
  const { rows } = await q.query<StaffUser>(`SELECT ${STAFF_COLUMNS} FROM brokerdesk.staff_users WHERE email = $1`, [email]);
  return rows[0];
}

/** The new user, or undefined when the email is taken. */
export async function insertStaff(
  q: Queryable,
  user: { email: string; name: string; role: string; passwordHash: string },
): Promise<StaffUser | undefined> {
  const { rows } = await q.query<StaffUser>(
    `INSERT INTO brokerdesk.staff_users (email, name, role, password_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING RETURNING ${STAFF_COLUMNS}`,
    [user.email, user.name, user.role, user.passwordHash],
  );
  return rows[0];
}

/**
 * Sets the given fields (a role, disabled, or an unlock) and updated_at; undefined when there is no such user. A
 * disable also ends the user's sessions (as `disableStaffByEmail` does): enabled again, they sign in anew.
 */
export async function updateStaffRow(
  q: Queryable,
  id: string,
  change: { role?: string; disabled?: boolean; unlock?: boolean },
): Promise<StaffUser | undefined> {
  const { rows } = await q.query<StaffUser>(
    `UPDATE brokerdesk.staff_users SET updated_at = now(),
       role = COALESCE($2, role),
       disabled = COALESCE($3, disabled),
       sessions_revoked_at = CASE WHEN $3 THEN now() ELSE sessions_revoked_at END,
       locked_until = CASE WHEN $4 THEN NULL ELSE locked_until END,
       failed_attempts = CASE WHEN $4 THEN 0 ELSE failed_attempts END
     WHERE id = $1 RETURNING ${STAFF_COLUMNS}`,
    [id, change.role ?? null, change.disabled ?? null, change.unlock ?? false],
  );
  return rows[0];
}

export async function revokeStaffSessions(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE brokerdesk.staff_users SET sessions_revoked_at = now() WHERE id = $1`, [id]);
}

/**
 * Counts a wrong password in one atomic statement, so concurrent wrong guesses each count: the `max`-th locks the
 * user for `lockMinutes` and starts the count again. Returns the lock's end when this one locked it.
 */
export async function countFailedSignIn(q: Queryable, id: string, max: number, lockMinutes: number): Promise<Date | null> {
  const { rows } = await q.query<{ lockedUntil: Date | null }>(
    `UPDATE brokerdesk.staff_users SET
       failed_attempts = CASE WHEN failed_attempts + 1 >= $2 THEN 0 ELSE failed_attempts + 1 END,
       locked_until = CASE WHEN failed_attempts + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE NULL END
     WHERE id = $1 RETURNING locked_until AS "lockedUntil"`,
    [id, max, lockMinutes],
  );
  return rows[0]?.lockedUntil ?? null;
}

export async function recordSignIn(q: Queryable, id: string): Promise<void> {
  await q.query(`UPDATE brokerdesk.staff_users SET failed_attempts = 0, locked_until = NULL, last_sign_in_at = now() WHERE id = $1`, [id]);
}

/** Disables the given users who are not disabled yet and ends their sessions; returns their emails. */
export async function disableStaffByEmail(q: Queryable, emails: string[]): Promise<string[]> {
  const { rows } = await q.query<{ email: string }>(
    `UPDATE brokerdesk.staff_users SET disabled = true, sessions_revoked_at = now(), updated_at = now()
     WHERE email = ANY($1::text[]) AND NOT disabled RETURNING email`,
    [emails],
  );
  return rows.map((r) => r.email);
}

// Each order is an expression plus the id as the tiebreak, so keyset paging holds in every order.
const SORT_SQL: Record<StaffSort, string> = { name: "lower(name)", email: "email", role: "role" };

export type StaffPageRow = Omit<StaffRow, "lastSignInAt" | "twoFactor" | "roleLabel"> & {
  last_sign_in_at: Date | string | null;
  two_factor: boolean;
  role_label: string | null;
};

/** One keyset page of staff users in the given order. */
export function selectStaffPage(
  q: Queryable,
  query: { sort: Sort<StaffSort>; cursor?: string; limit: number },
): Promise<{ rows: StaffPageRow[]; nextCursor?: string }> {
  return keysetPage<StaffPageRow>(q, {
    columns: `id, email, name, role, (SELECT r.label FROM brokerdesk.staff_roles r WHERE r.key = staff_users.role) AS role_label, disabled, (locked_until IS NOT NULL AND locked_until > now()) AS locked, last_sign_in_at,
      EXISTS (SELECT 1 FROM brokerdesk.staff_totp t WHERE t.staff_id = staff_users.id AND t.confirmed_at IS NOT NULL) AS two_factor`,
    from: "brokerdesk.staff_users",
    where: [],
    params: [],
    sort: SORT_SQL[query.sort.id],
    tiebreak: "id",
    desc: query.sort.desc,
    cursor: query.cursor,
    limit: query.limit,
  });
}
