import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { SESSION_COOKIE } from "@/auth.config";
import { can, type Permission } from "@/lib/auth/permissions";
import { getDb } from "@/server/db";
import { ENROL_PATH, mustEnrolFirst } from "./enrolment";
import { openSessionToken } from "./session-token";
import { findStaffById } from "./staff";
import { staffOf, type Staff } from "./staff-access";

export type { Staff } from "./staff-access";

/**
 * The session cookie's claims (auth.config.ts's `jwt` callback: `sub`, `signedInAt`), or null: its token opened
 * (server/auth/session-token.ts) and nothing more. Only the cookie is read: a bearer header is the assistant channels'
 * credential, never a session.
 */
async function sessionClaims(): Promise<{ sub?: string; signedInAt?: unknown } | null> {
  // Read first, whatever follows: it is what makes every page that asks for the staff member render per request.
  return openSessionToken((await cookies()).get(SESSION_COOKIE)?.value);
}

/**
 * The signed-in staff user, read from the database on every request: a disabled user, a changed role or a change
 * of a custom role's permissions takes effect at once, whatever the session cookie says.
 */
export const currentStaff = cache(async (): Promise<Staff | null> => {
  const claims = await sessionClaims();
  const id = claims?.sub;
  if (!id) return null;
  const user = await findStaffById(await getDb(), id);
  if (!user || user.disabled) return null;
  const signedInAt = Number(claims.signedInAt ?? 0);
  if (user.sessionsRevokedAt && signedInAt <= user.sessionsRevokedAt.getTime()) return null;
  return staffOf(user) ?? null;
});

/** `enrolment: "optional"`: the desk's own layout (each page checks) and the page where one enrols. */
export interface PageGuardOptions {
  enrolment?: "required" | "optional";
}

/**
 * For pages: the staff user, or a redirect to sign in; a staff member whose role requires two-factor sign-in and
 * who has not enrolled is sent to enrol first (Settings → Security), whatever page they asked for.
 */
export async function requireStaff(options: PageGuardOptions = {}): Promise<Staff> {
  const staff = await currentStaff();
  if (!staff) redirect("/sign-in");
  if (options.enrolment !== "optional" && (await mustEnrolFirst(staff))) redirect(`${ENROL_PATH}?required=1`);
  return staff;
}

/** For pages: the staff user holding `permission`, or the forbidden page. */
export async function requirePermission(permission: Permission, options: PageGuardOptions = {}): Promise<Staff> {
  const staff = await requireStaff(options);
  if (!can(staff, permission)) forbidden();
  return staff;
}
