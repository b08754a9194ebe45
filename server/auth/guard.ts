import "server-only";
import { cache } from "react";
import { getToken } from "next-auth/jwt";
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { SESSION_COOKIE } from "@/auth.config";
import { can, type Permission } from "@/lib/auth/permissions";
import { getDb } from "@/server/db";
import { ENROL_PATH, mustEnrolFirst } from "./enrolment";
import { findStaffById } from "./staff";
import { staffOf, type Staff } from "./staff-access";

export type { Staff } from "./staff-access";

/**
 * The session cookie's claims (auth.config.ts's `jwt` callback: `sub`, `signedInAt`), or null: its JWT opened and
 * nothing more. Auth.js's `auth()` would also re-issue the cookie, which a route handler or a page's render cannot
 * send (the proxy renews it on pages); that is a second encryption a request for nothing. Only the cookie is read:
 * a bearer header is the assistant channels' credential, never a session.
 */
async function sessionClaims(): Promise<{ sub?: string; signedInAt?: unknown } | null> {
  // Read first, whatever follows: it is what makes every page that asks for the staff member render per request.
  const cookie = (await headers()).get("cookie") ?? "";
  // As Auth.js reads it: AUTH_SECRET, with AUTH_SECRET_1…3 tried first while a secret is rotated.
  const secret = [3, 2, 1]
    .map((i) => process.env[`AUTH_SECRET_${i}`])
    .concat(process.env.AUTH_SECRET)
    .filter((v): v is string => !!v);
  if (!secret.length) return null;
  return getToken({ req: { headers: { cookie } }, secret, cookieName: SESSION_COOKIE, salt: SESSION_COOKIE });
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
