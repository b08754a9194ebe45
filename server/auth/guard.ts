import "server-only";
import { cache } from "react";
import { forbidden, redirect } from "next/navigation";
import { auth } from "@/auth";
import { can, isRole, type Permission, type Role } from "@/lib/auth/permissions";
import { getDb } from "@/server/db";
import { findStaffById } from "./staff";

export interface Staff {
  id: string;
  email: string;
  name: string;
  role: Role;
}

/**
 * The signed-in staff user, read from the database on every request: a disabled user or a changed role takes
 * effect at once, whatever the session cookie says.
 */
export const currentStaff = cache(async (): Promise<Staff | null> => {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const user = await findStaffById(await getDb(), id);
  if (!user || user.disabled || !isRole(user.role)) return null;
  const signedInAt = Number((session as { signedInAt?: unknown }).signedInAt ?? 0);
  if (user.sessionsRevokedAt && signedInAt <= user.sessionsRevokedAt.getTime()) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
});

/** For pages: the staff user, or a redirect to sign in. */
export async function requireStaff(): Promise<Staff> {
  const staff = await currentStaff();
  if (!staff) redirect("/sign-in");
  return staff;
}

/** For pages: the staff user holding `permission`, or the forbidden page. */
export async function requirePermission(permission: Permission): Promise<Staff> {
  const staff = await requireStaff();
  if (!can(staff.role, permission)) forbidden();
  return staff;
}
