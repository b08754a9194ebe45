import { accessOf, type Access } from "@/lib/auth/permissions";

/** A staff member as every check sees them: who, and their role's permissions as read at this request. */
export interface Staff extends Access {
  id: string;
  email: string;
  name: string;
  roleLabel: string;
}

/** A staff row with its role's columns as a `Staff`, or undefined when the role does not exist (no access at all). */
export function staffOf(row: {
  id: string;
  email: string;
  name: string;
  role: string;
  roleLabel: string | null;
  rolePermissions: readonly string[] | null;
}): Staff | undefined {
  const access = accessOf(row.role, row);
  return access && { id: row.id, email: row.email, name: row.name, ...access };
}
