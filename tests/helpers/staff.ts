import { accessOf, type Role } from "@/lib/auth/permissions";
import type { Staff } from "@/server/auth/guard";
import { createStaff } from "@/server/auth/staff";
import type { AppDb } from "@/server/db";

export const STAFF_PASSWORD = "a long enough password";
let n = 0;

/** A staff member of their own (credentials, enrolments and audit entries belong to one), as the session sees them. */
export async function newStaff(db: AppDb, role: Role, domain: string): Promise<Staff> {
  n += 1;
  const u = await createStaff(db, { email: `${role}${n}@${domain}`, name: `${role} ${n}`, role, password: STAFF_PASSWORD });
  return { id: u.id, email: u.email, name: u.name, ...roleAccess(role) };
}

/** A role's access as the session carries it (a built-in role's table; an unknown role: nothing). */
export const roleAccess = (role: string) => accessOf(role) ?? { role, roleLabel: role, permissions: [] };

/** A signed-in staff member for tests that mock the session (a fixed id from `n`, the role in the email). */
export const sessionPerson = (n: number, role: string) => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  email: `${role}${n}@example.test`,
  name: `${role} ${n}`,
  ...roleAccess(role),
});
