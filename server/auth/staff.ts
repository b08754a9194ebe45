import "server-only";
import type { AuditChannel } from "@/lib/schemas/audit";
import type { AppDb } from "@/server/db";
import { appendAudit } from "@/server/audit/trail";
import { AppError } from "@/lib/errors";
import { checkCode, isEnrolled } from "@/server/two-factor/two-factor";
import { burnVerification, hashPassword, verifyPassword } from "./passwords";
import {
  countFailedSignIn,
  insertStaff,
  recordSignIn,
  revokeStaffSessions,
  selectStaffByEmail,
  selectStaffById,
  updateStaffRow,
  type StaffUser,
} from "./queries";
import { issueChallenge, readChallenge } from "./sign-in-challenge";

export type { StaffUser } from "./queries";

export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MINUTES = 15;

export type PublicStaff = Omit<StaffUser, "passwordHash">;

export function toPublic(user: StaffUser): PublicStaff {
  const { passwordHash: _omit, ...rest } = user;
  return rest;
}

export async function findStaffById(db: AppDb, id: string): Promise<StaffUser | undefined> {
  return selectStaffById(db.engine, id);
}

export async function findStaffByEmail(db: AppDb, email: string): Promise<StaffUser | undefined> {
  return selectStaffByEmail(db.engine, email.trim().toLowerCase());
}

export class StaffExistsError extends AppError {
  constructor(email: string) {
    super("STAFF_EXISTS", `A staff user with the email ${email} already exists`, "A staff user with this email already exists.");
  }
}

export async function createStaff(db: AppDb, input: { email: string; name: string; role: string; password: string }): Promise<PublicStaff> {
  const passwordHash = await hashPassword(input.password);
  const user = await insertStaff(db.engine, { email: input.email.trim().toLowerCase(), name: input.name, role: input.role, passwordHash });
  if (!user) throw new StaffExistsError(input.email);
  return toPublic(user);
}

export async function updateStaff(
  db: AppDb,
  id: string,
  change: Partial<{ role: string; disabled: boolean; unlock: true }>,
): Promise<PublicStaff | undefined> {
  const user = await updateStaffRow(db.engine, id, change);
  return user && toPublic(user);
}

/** Ends every session of the user: a copied session cookie stops working too. */
export async function revokeSessions(db: AppDb, id: string): Promise<void> {
  await revokeStaffSessions(db.engine, id);
}

export type SignInFailure = "invalid" | "locked" | "disabled" | "challenge_expired";
export type SignInResult =
  | { ok: true; user: PublicStaff }
  | { ok: false; reason: SignInFailure; lockedUntil?: Date }
  /** The password was right and the staff member signs in with a code too: the page asks for it with this challenge. */
  | { ok: false; reason: "code_required"; challenge: string };

export interface RequestMeta {
  clientIp?: string | null;
  userAgent?: string | null;
  /** A call through an assistant channel with a staff access token (null or absent: the desk's pages). */
  channel?: AuditChannel | null;
  tokenId?: string | null;
}

type Audit = (action: string, outcome: "success" | "failure", errorCode?: string) => Promise<void>;

function signInAudit(db: AppDb, user: StaffUser | undefined, email: string, meta: RequestMeta): Audit {
  return async (action, outcome, errorCode) => {
    await appendAudit(db, {
      actorId: user?.id,
      actorEmail: user?.email ?? email.trim().toLowerCase().slice(0, 254),
      actorRole: user?.role,
      action,
      target: user ? `staff:${user.id}` : null,
      outcome,
      errorCode,
      ...meta,
    });
  };
}

/** A wrong password or code: counted towards the lockout, audited (and the lockout it causes). */
async function wrongCredential(db: AppDb, user: StaffUser, audit: Audit, errorCode: string): Promise<SignInResult> {
  const lockedUntil = await countFailedSignIn(db.engine, user.id, MAX_FAILED_ATTEMPTS, LOCKOUT_MINUTES);
  await audit("auth.sign_in", "failure", errorCode);
  if (lockedUntil) {
    await audit("auth.lockout", "success");
    return { ok: false, reason: "locked", lockedUntil };
  }
  return { ok: false, reason: "invalid" };
}

/**
 * Checks a staff sign-in and applies the lockout rule: after MAX_FAILED_ATTEMPTS wrong passwords (or codes) the
 * account is refused for LOCKOUT_MINUTES, whatever password is given. A staff member with two-factor sign-in is not
 * signed in by the password alone: the answer asks for a code (`completeSignInWithCode`). Every outcome is an
 * audit entry.
 */
export async function authenticateStaff(db: AppDb, email: string, password: string, meta: RequestMeta = {}): Promise<SignInResult> {
  const user = await findStaffByEmail(db, email);
  const audit = signInAudit(db, user, email, meta);

  if (!user) {
    await burnVerification(password);
    await audit("auth.sign_in", "failure", "INVALID_CREDENTIALS");
    return { ok: false, reason: "invalid" };
  }
  if (user.lockedUntil && user.lockedUntil > new Date()) {
    await audit("auth.sign_in", "failure", "ACCOUNT_LOCKED");
    return { ok: false, reason: "locked", lockedUntil: user.lockedUntil };
  }
  if (!(await verifyPassword(user.passwordHash, password))) return wrongCredential(db, user, audit, "INVALID_CREDENTIALS");
  if (user.disabled) {
    await audit("auth.sign_in", "failure", "ACCOUNT_DISABLED");
    return { ok: false, reason: "disabled" };
  }
  if (await isEnrolled(db, user.id)) {
    await audit("auth.code_requested", "success");
    return { ok: false, reason: "code_required", challenge: issueChallenge(user.id) };
  }
  await recordSignIn(db.engine, user.id);
  await audit("auth.sign_in", "success");
  return { ok: true, user: toPublic(user) };
}

/**
 * The second step of a two-factor sign-in: the challenge the password step answered (expired: back to the
 * password) and a code from the staff member's authenticator. A wrong code counts towards the lockout like a wrong
 * password; a code of a step already used is wrong; past the codes' own limit (server/two-factor) no code is
 * accepted for a while. Every outcome is an audit entry.
 */
export async function completeSignInWithCode(db: AppDb, challenge: string, code: string, meta: RequestMeta = {}): Promise<SignInResult> {
  const staffId = readChallenge(challenge);
  const user = staffId ? await findStaffById(db, staffId) : undefined;
  if (!user) return { ok: false, reason: "challenge_expired" };
  const audit = signInAudit(db, user, user.email, meta);
  if (user.lockedUntil && user.lockedUntil > new Date()) {
    await audit("auth.sign_in", "failure", "ACCOUNT_LOCKED");
    return { ok: false, reason: "locked", lockedUntil: user.lockedUntil };
  }
  if (user.disabled) {
    await audit("auth.sign_in", "failure", "ACCOUNT_DISABLED");
    return { ok: false, reason: "disabled" };
  }
  const check = await checkCode(db, user.id, code);
  if (check.ok) {
    await recordSignIn(db.engine, user.id);
    await audit("auth.sign_in", "success");
    return { ok: true, user: toPublic(user) };
  }
  if (check.reason === "wrong_code") return wrongCredential(db, user, audit, "WRONG_CODE");
  await audit("auth.sign_in", "failure", check.reason === "rate_limited" ? "CODE_RATE_LIMITED" : "NOT_ENROLLED");
  return { ok: false, reason: "invalid" };
}

/**
 * What a person is told when sign-in fails: one sentence whatever the reason, so the page never reveals whether an
 * email exists, is locked or is disabled. The reason is in the audit trail (auth.sign_in failure, auth.lockout).
 */
export const SIGN_IN_FAILED = `Sign-in failed. Check your email and password; after ${MAX_FAILED_ATTEMPTS} failed attempts an account is locked for ${LOCKOUT_MINUTES} minutes, and an administrator can unlock it.`;
