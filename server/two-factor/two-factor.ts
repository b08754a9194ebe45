import "server-only";
import { roleOptions } from "@/server/roles/roles";
import { AppError } from "@/lib/errors";
import type { AppDb } from "@/server/db";
import { seal, unseal } from "@/server/secrets/seal";
import {
  confirmTotpRow,
  deleteTotp,
  insertFailure,
  saveRequiredRoles,
  selectMustEnrol,
  selectRecentFailures,
  selectRequiredRoles,
  selectRoleRequires,
  selectTotp,
  selectTotpForUpdate,
  updateTotpStep,
  upsertPendingTotp,
} from "./queries";
import { matchingStep, newTotpSecret, otpauthUri } from "./totp";

/**
 * Two-factor authentication of staff: an authenticator enrolled on Settings → Security (pending until a first code
 * confirms it), the one code check every caller uses (desk sign-in, command-line login, turning it off), and the
 * roles whose members must have one. The secret is sealed (server/secrets/seal.ts) and read only to check a code or
 * to show a pending enrolment to its own staff member.
 */

export const MAX_WRONG_CODES = 5;
export const WRONG_CODE_WINDOW_MINUTES = 15;
const WINDOW_MS = WRONG_CODE_WINDOW_MINUTES * 60_000;

const context = (staffId: string) => `staff_totp:${staffId}`;

export type CodeCheck =
  { ok: true } | { ok: false; reason: "not_enrolled" | "wrong_code" } | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

/**
 * Checks a code against the staff member's confirmed authenticator, under a lock on its row so that concurrent
 * checks are counted one by one: refused while MAX_WRONG_CODES wrong codes fall within the last
 * WRONG_CODE_WINDOW_MINUTES (whatever the code), a wrong code counted, a code of a step already used refused as
 * wrong (replay), the step of an accepted code kept.
 */
export async function checkCode(db: AppDb, staffId: string, code: string, now = new Date()): Promise<CodeCheck> {
  return db.engine.transaction(async (tx) => {
    const row = await selectTotpForUpdate(tx, staffId);
    if (!row?.confirmedAt) return { ok: false, reason: "not_enrolled" };
    const failures = await selectRecentFailures(tx, staffId, new Date(now.getTime() - WINDOW_MS));
    if (failures.count >= MAX_WRONG_CODES) {
      const endsInMs = (failures.oldest ? failures.oldest.getTime() : now.getTime()) + WINDOW_MS - now.getTime();
      return { ok: false, reason: "rate_limited", retryAfterSeconds: Math.max(1, Math.ceil(endsInMs / 1000)) };
    }
    const step = matchingStep(unseal(row.secretSealed, context(staffId)), code, now, row.lastStep);
    if (step === undefined) {
      await insertFailure(tx, staffId, now);
      return { ok: false, reason: "wrong_code" };
    }
    await updateTotpStep(tx, staffId, step);
    return { ok: true };
  });
}

export type Enrolment = { status: "off" } | { status: "pending"; secret: string; uri: string } | { status: "on"; since: string };

/** The staff member's own enrolment, a pending one with its secret (for them alone: the page shows it to enrol). */
export async function enrolmentOf(db: AppDb, staff: { id: string; email: string }): Promise<Enrolment> {
  const row = await selectTotp(db.engine, staff.id);
  if (!row) return { status: "off" };
  if (row.confirmedAt) return { status: "on", since: row.confirmedAt.toISOString() };
  const secret = unseal(row.secretSealed, context(staff.id));
  return { status: "pending", secret, uri: otpauthUri(secret, staff.email) };
}

export async function isEnrolled(db: AppDb, staffId: string): Promise<boolean> {
  return !!(await selectTotp(db.engine, staffId))?.confirmedAt;
}

/** A new pending secret (replacing a pending one); refused while an authenticator is on. */
export async function startEnrolment(db: AppDb, staff: { id: string }, now = new Date()): Promise<void> {
  if (!(await upsertPendingTotp(db.engine, staff.id, seal(newTotpSecret(), context(staff.id)), now))) {
    throw new AppError("ALREADY_ENROLLED", `${staff.id} already enrolled`, "Two-factor sign-in is already on: turn it off first.");
  }
}

const wrongCode = () =>
  new AppError("WRONG_CODE", "wrong code", "That code is not right, or was used already.", {
    otp: "Enter the 6-digit code your app shows now.",
  });

/** Confirms the pending enrolment with a code from the app: from then on the staff member signs in with a code. */
export async function confirmEnrolment(db: AppDb, staff: { id: string }, code: string, now = new Date()): Promise<{ since: string }> {
  return db.engine.transaction(async (tx) => {
    const row = await selectTotpForUpdate(tx, staff.id);
    if (!row || row.confirmedAt) {
      throw new AppError(
        "NO_PENDING_ENROLMENT",
        `${staff.id} has no pending enrolment`,
        "Start the set-up again: there is nothing to confirm.",
      );
    }
    const step = matchingStep(unseal(row.secretSealed, context(staff.id)), code, now, null);
    if (step === undefined) throw wrongCode();
    await confirmTotpRow(tx, staff.id, step, now);
    return { since: now.toISOString() };
  });
}

/** Turns two-factor sign-in off, with a current code; refused when the staff member's role requires it. */
export async function disableTwoFactor(db: AppDb, staff: { id: string; role: string }, code: string, now = new Date()): Promise<void> {
  if (await selectRoleRequires(db.engine, staff.role)) {
    throw new AppError(
      "REQUIRED_BY_ROLE",
      `${staff.role} requires two-factor`,
      "Your role requires two-factor sign-in: it cannot be turned off.",
    );
  }
  const check = await checkCode(db, staff.id, code, now);
  if (!check.ok) {
    if (check.reason === "not_enrolled") throw new AppError("NOT_ENROLLED", `${staff.id} not enrolled`, "Two-factor sign-in is not on.");
    if (check.reason === "rate_limited") {
      throw new AppError("RATE_LIMITED", `${staff.id} rate limited`, `Too many wrong codes: try again in ${check.retryAfterSeconds} s.`);
    }
    throw wrongCode();
  }
  await deleteTotp(db.engine, staff.id);
}

/**
 * An administrator's reset of someone's authenticator (a lost phone; an AUTH_SECRET changed, which voids every
 * sealed secret): they sign in with their password again and, when their role requires it, enrol anew.
 */
export async function resetTwoFactor(db: AppDb, staffId: string): Promise<boolean> {
  return deleteTotp(db.engine, staffId);
}

/** Whether the staff member must enrol before using the desk (their role requires it and they have not). */
export async function mustEnrol(db: AppDb, staff: { id: string; role: string }): Promise<boolean> {
  return selectMustEnrol(db.engine, staff.id, staff.role);
}

/** The roles, built-in or custom, whose members must sign in with a code. */
export async function requiredRoles(db: AppDb): Promise<string[]> {
  return selectRequiredRoles(db.engine);
}

/** Sets the roles that require a code: those named, of the roles that exist; every other role requires none. */
export async function setRequiredRoles(db: AppDb, roles: readonly string[], by: string, now = new Date()): Promise<string[]> {
  const all = (await roleOptions(db)).map((r) => r.value);
  await saveRequiredRoles(
    db.engine,
    roles.filter((r) => all.includes(r)),
    all,
    by,
    now,
  );
  return requiredRoles(db);
}
