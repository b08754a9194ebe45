import "server-only";
import { accessOf, builtInPermissions, isPermission, isRole, type Access } from "@/lib/auth/permissions";
import { AppError, NotFoundError } from "@/lib/errors";
import { roleKeyOf, type RoleOption, type RoleView } from "@/lib/schemas/roles";
import type { AppDb } from "@/server/db";
import type { Queryable } from "@/server/db/engine";
import { deleteCustomRole, insertRole, selectRoleRef, selectRoles, updateCustomRole, type RoleRow } from "./queries";

/**
 * Roles: the four built-in ones (their permissions in lib/auth/permissions.ts) and custom ones made by an
 * administrator from the permission list. A staff member's permissions are read with them on every request
 * (server/auth/guard.ts), so a change to a role applies at its holders' next request.
 */

function view(row: RoleRow): RoleView {
  return {
    key: row.key,
    label: row.label,
    description: row.description,
    builtIn: row.builtIn,
    permissions: isRole(row.key) && row.builtIn ? builtInPermissions(row.key) : (row.permissions ?? []).filter(isPermission),
    holders: row.holders,
    disabledHolders: row.disabledHolders,
  };
}

export async function listRoles(db: AppDb): Promise<RoleView[]> {
  return (await selectRoles(db.engine)).map(view);
}

/** The roles a staff member may be given, for the staff page's selects. */
export async function roleOptions(db: AppDb): Promise<RoleOption[]> {
  return (await selectRoles(db.engine)).map((r) => ({ value: r.key, label: r.label }));
}

/** The roles that may decide approval requests (hold `approvals:decide`): what an approval rule may name. */
export async function approverRoleOptions(db: AppDb): Promise<RoleOption[]> {
  return (await listRoles(db)).filter((r) => r.permissions.includes("approvals:decide")).map((r) => ({ value: r.key, label: r.label }));
}

/** The role's access as read now, or undefined when no such role exists. */
export async function accessOfRole(q: Queryable, key: string): Promise<(Access & { roleLabel: string }) | undefined> {
  if (isRole(key)) return accessOf(key);
  const ref = await selectRoleRef(q, key);
  return ref && accessOf(key, ref);
}

/** Refuses a role that does not exist, as a field error of the form that chose it. */
export async function mustBeRole(db: AppDb, key: string, field = "role"): Promise<void> {
  if (!(await accessOfRole(db.engine, key))) {
    throw new AppError("UNKNOWN_ROLE", `no role ${key}`, "Check the highlighted fields.", { [field]: "This role no longer exists" });
  }
}

const labelTaken = () =>
  new AppError("ROLE_EXISTS", "role name taken", "Check the highlighted fields.", { label: "A role with this name already exists" });

export async function createRole(
  db: AppDb,
  input: { label: string; description: string; permissions: string[] },
  by: string,
): Promise<{ key: string }> {
  const key = roleKeyOf(input.label);
  const made = await insertRole(db.engine, { key, ...input }, by);
  if (!made.ok) throw labelTaken();
  return { key };
}

export async function updateRole(
  db: AppDb,
  key: string,
  change: { label: string; description: string; permissions: string[] },
  by: string,
): Promise<void> {
  const outcome = await updateCustomRole(db.engine, key, change, by);
  if (outcome === "missing") throw new NotFoundError("This role no longer exists.");
  if (outcome === "built-in")
    throw new AppError("BUILT_IN_ROLE", "built-in role", "A built-in role cannot be changed: make a custom role instead.");
  if (outcome === "label") throw labelTaken();
}

export async function deleteRole(db: AppDb, key: string): Promise<void> {
  const outcome = await deleteCustomRole(db.engine, key);
  if (outcome === "missing") throw new NotFoundError("This role no longer exists.");
  if (outcome === "built-in") throw new AppError("BUILT_IN_ROLE", "built-in role", "A built-in role cannot be deleted.");
  if (outcome === "held") {
    throw new AppError("ROLE_IN_USE", "role held", "Staff still hold this role: give them another role first, then delete it.");
  }
}
