import type { AppDb } from "@/server/db";
import { codeAt, stepAt } from "@/server/two-factor/totp";
import { confirmEnrolment, enrolmentOf, startEnrolment } from "@/server/two-factor/two-factor";

/**
 * Enrols a staff member's authenticator as the Security page does (start, then confirm with the app's code) and
 * answers its secret, from which a test makes the codes an app would show: `code(now)`, or a step's own.
 */
export async function enrol(db: AppDb, staff: { id: string; email: string }, now = new Date()) {
  await startEnrolment(db, staff, now);
  const pending = await enrolmentOf(db, staff);
  if (pending.status !== "pending") throw new Error("no pending enrolment");
  await confirmEnrolment(db, staff, codeAt(pending.secret, stepAt(now)), now);
  const secret = pending.secret;
  return { secret, code: (at: Date, stepsLater = 0) => codeAt(secret, stepAt(at) + stepsLater) };
}
