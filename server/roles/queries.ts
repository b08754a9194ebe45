import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The roles domain's SQL: table brokerdesk.staff_roles (migration 0130) and who holds each role. */

export interface RoleRow {
  key: string;
  label: string;
  description: string;
  builtIn: boolean;
  /** A custom role's permissions by name; null for a built-in one (the code's table). */
  permissions: string[] | null;
  /** The enabled staff members holding it, by email; and how many disabled ones do. */
  holders: string[];
  disabledHolders: number;
  updatedAt: Date;
}

const ROLE_COLUMNS = `r.key, r.label, r.description, r.built_in AS "builtIn", r.permissions, r.updated_at AS "updatedAt",
  COALESCE((SELECT array_agg(s.email ORDER BY s.email) FROM brokerdesk.staff_users s WHERE s.role = r.key AND NOT s.disabled), '{}') AS holders,
  (SELECT count(*)::int FROM brokerdesk.staff_users s WHERE s.role = r.key AND s.disabled) AS "disabledHolders"`;

/** Every role, the built-in ones first, then by label. */
export async function selectRoles(q: Queryable): Promise<RoleRow[]> {
  const { rows } = await q.query<RoleRow>(`SELECT ${ROLE_COLUMNS} FROM brokerdesk.staff_roles r ORDER BY r.built_in DESC, lower(r.label)`);
  return rows;
}

export async function selectRole(q: Queryable, key: string): Promise<RoleRow | undefined> {
  const { rows } = await q.query<RoleRow>(`SELECT ${ROLE_COLUMNS} FROM brokerdesk.staff_roles r WHERE r.key = $1`, [key]);
  return rows[0];
}

/** The new role, or which of its key and label another role has already. */
export async function insertRole(
  q: Queryable,
  role: { key: string; label: string; description: string; permissions: string[] },
  by: string,
): Promise<{ ok: true } | { ok: false; taken: "key" | "label" }> {
  const { rows } = await q.query<{ key: string }>(
    `INSERT INTO brokerdesk.staff_roles (key, label, description, permissions, created_by, updated_by)
     SELECT $1, $2, $3, $4::text[], $5, $5
     WHERE NOT EXISTS (SELECT 1 FROM brokerdesk.staff_roles WHERE lower(label) = lower($2))
     ON CONFLICT DO NOTHING RETURNING key`,
    [role.key, role.label, role.description, role.permissions, by],
  );
  if (rows[0]) return { ok: true };
  const { rows: keyTaken } = await q.query(`SELECT 1 FROM brokerdesk.staff_roles WHERE key = $1`, [role.key]);
  return { ok: false, taken: keyTaken.length ? "key" : "label" };
}

/** A custom role's new label, description and permissions; "built-in", "missing" or "label" (taken) when not changed. */
export async function updateCustomRole(
  q: Queryable,
  key: string,
  change: { label: string; description: string; permissions: string[] },
  by: string,
): Promise<"updated" | "built-in" | "missing" | "label"> {
  const { rows } = await q.query<{ key: string }>(
    `UPDATE brokerdesk.staff_roles SET label = $2, description = $3, permissions = $4::text[], updated_by = $5, updated_at = now()
     WHERE key = $1 AND NOT built_in
       AND NOT EXISTS (SELECT 1 FROM brokerdesk.staff_roles o WHERE lower(o.label) = lower($2) AND o.key <> $1)
     RETURNING key`,
    [key, change.label, change.description, change.permissions, by],
  );
  if (rows[0]) return "updated";
  const existing = await selectRole(q, key);
  return !existing ? "missing" : existing.builtIn ? "built-in" : "label";
}

/** Deletes a custom role nobody holds (enabled or not); what stopped it otherwise. */
export async function deleteCustomRole(q: Queryable, key: string): Promise<"deleted" | "built-in" | "missing" | "held"> {
  const { rows } = await q.query<{ key: string }>(
    `DELETE FROM brokerdesk.staff_roles r WHERE r.key = $1 AND NOT r.built_in
       AND NOT EXISTS (SELECT 1 FROM brokerdesk.staff_users s WHERE s.role = r.key) RETURNING key`,
    [key],
  );
  if (rows[0]) return "deleted";
  const existing = await selectRole(q, key);
  return !existing ? "missing" : existing.builtIn ? "built-in" : "held";
}

/** A role's label and a custom role's permissions (as a staff row joins them), or undefined when there is no such role. */
export async function selectRoleRef(
  q: Queryable,
  key: string,
): Promise<{ roleLabel: string; rolePermissions: string[] | null } | undefined> {
  const { rows } = await q.query<{ roleLabel: string; rolePermissions: string[] | null }>(
    `SELECT label AS "roleLabel", permissions AS "rolePermissions" FROM brokerdesk.staff_roles WHERE key = $1`,
    [key],
  );
  return rows[0];
}
