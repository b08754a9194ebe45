import "server-only";
import { eq, sql } from "drizzle-orm";
import type { AppDb } from "@/server/db";
import { staffUsers, type StaffUser } from "@/server/db/schema";
import { appendAudit } from "@/server/audit/trail";
import type { Role } from "@/lib/auth/permissions";
import { AppError } from "@/lib/errors";
import { burnVerification, hashPassword, verifyPassword } from "./passwords";

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MINUTES = 15;

export type PublicStaff = Omit<StaffUser, "passwordHash">;

export function toPublic(user: StaffUser): PublicStaff {
  const { passwordHash: _omit, ...rest } = user;
  return rest;
}

export async function findStaffById(db: AppDb, id: string): Promise<StaffUser | undefined> {
  const [user] = await db.orm.select().from(staffUsers).where(eq(staffUsers.id, id));
  return user;
}

export async function findStaffByEmail(db: AppDb, email: string): Promise<StaffUser | undefined> {
  const [user] = await db.orm.select().from(staffUsers).where(eq(staffUsers.email, email.trim().toLowerCase()));
  return user;
}

export class StaffExistsError extends AppError {
  constructor(email: string) {
    super("STAFF_EXISTS", `A staff user with the email ${email} already exists`, "A staff user with this email already exists.");
  }
}

export async function createStaff(db: AppDb, input: { email: string; name: string; role: Role; password: string }): Promise<PublicStaff> {
  const passwordHash = await hashPassword(input.password);
  const rows = await db.orm
    .insert(staffUsers)
    .values({ email: input.email.trim().toLowerCase(), name: input.name, role: input.role, passwordHash })
    .onConflictDoNothing({ target: staffUsers.email })
    .returning();
  if (rows.length === 0) throw new StaffExistsError(input.email);
  return toPublic(rows[0]);
}

export async function updateStaff(
  db: AppDb,
  id: string,
  change: Partial<{ role: Role; disabled: boolean; unlock: true }>,
): Promise<PublicStaff | undefined> {
  const set: Partial<typeof staffUsers.$inferInsert> = { updatedAt: new Date() };
  if (change.role) set.role = change.role;
  if (change.disabled !== undefined) set.disabled = change.disabled;
  if (change.unlock) Object.assign(set, { lockedUntil: null, failedAttempts: 0 });
  const [user] = await db.orm.update(staffUsers).set(set).where(eq(staffUsers.id, id)).returning();
  return user && toPublic(user);
}

/** Ends every session of the user: a copied session cookie stops working too. */
export async function revokeSessions(db: AppDb, id: string): Promise<void> {
  await db.orm.update(staffUsers).set({ sessionsRevokedAt: new Date() }).where(eq(staffUsers.id, id));
}

export type SignInFailure = "invalid" | "locked" | "disabled";
export type SignInResult = { ok: true; user: PublicStaff } | { ok: false; reason: SignInFailure; lockedUntil?: Date };

export interface RequestMeta {
  clientIp?: string | null;
  userAgent?: string | null;
}

/**
 * Checks a staff sign-in and applies the lockout rule: after MAX_FAILED_ATTEMPTS wrong passwords the account is
 * refused for LOCKOUT_MINUTES, whatever password is given. Every outcome is an audit entry.
 */
export async function authenticateStaff(db: AppDb, email: string, password: string, meta: RequestMeta = {}): Promise<SignInResult> {
  const user = await findStaffByEmail(db, email);
  const audit = (action: string, outcome: "success" | "failure", errorCode?: string) =>
    appendAudit(db, {
      actorId: user?.id,
      actorEmail: user?.email ?? email.trim().toLowerCase().slice(0, 254),
      actorRole: user?.role,
      action,
      target: user ? `staff:${user.id}` : null,
      outcome,
      errorCode,
      ...meta,
    });

  if (!user) {
    await burnVerification(password);
    await audit("auth.sign_in", "failure", "INVALID_CREDENTIALS");
    return { ok: false, reason: "invalid" };
  }
  if (user.lockedUntil && user.lockedUntil > new Date()) {
    await audit("auth.sign_in", "failure", "ACCOUNT_LOCKED");
    return { ok: false, reason: "locked", lockedUntil: user.lockedUntil };
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    // One atomic statement, so concurrent wrong guesses each count.
    const [after] = await db.orm
      .update(staffUsers)
      .set({
        failedAttempts: sql`CASE WHEN ${staffUsers.failedAttempts} + 1 >= ${MAX_FAILED_ATTEMPTS} THEN 0 ELSE ${staffUsers.failedAttempts} + 1 END`,
        lockedUntil: sql`CASE WHEN ${staffUsers.failedAttempts} + 1 >= ${MAX_FAILED_ATTEMPTS}
          THEN now() + make_interval(mins => ${LOCKOUT_MINUTES}) ELSE NULL END`,
      })
      .where(eq(staffUsers.id, user.id))
      .returning({ lockedUntil: staffUsers.lockedUntil });
    await audit("auth.sign_in", "failure", "INVALID_CREDENTIALS");
    if (after?.lockedUntil) {
      await audit("auth.lockout", "success");
      return { ok: false, reason: "locked", lockedUntil: after.lockedUntil };
    }
    return { ok: false, reason: "invalid" };
  }
  if (user.disabled) {
    await audit("auth.sign_in", "failure", "ACCOUNT_DISABLED");
    return { ok: false, reason: "disabled" };
  }
  await db.orm.update(staffUsers).set({ failedAttempts: 0, lockedUntil: null, lastSignInAt: new Date() }).where(eq(staffUsers.id, user.id));
  await audit("auth.sign_in", "success");
  return { ok: true, user: toPublic(user) };
}

/**
 * What a person is told when sign-in fails: one sentence whatever the reason, so the page never reveals whether an
 * email exists, is locked or is disabled. The reason is in the audit trail (auth.sign_in failure, auth.lockout).
 */
export const SIGN_IN_FAILED = `Sign-in failed. Check your email and password; after ${MAX_FAILED_ATTEMPTS} failed attempts an account is locked for ${LOCKOUT_MINUTES} minutes, and an administrator can unlock it.`;
