"use server";
import "server-only";
import { AuthError } from "next-auth";
import { challengeExpired, codeChallengeOf, signIn, signOut } from "@/auth";
import { signInCodeSchema, signInSchema } from "@/lib/schemas/staff";
import { appendAudit } from "@/server/audit/trail";
import { currentStaff } from "@/server/auth/guard";
import { requestMeta } from "@/server/auth/request-meta";
import { revokeSessions, SIGN_IN_FAILED } from "@/server/auth/staff";
import { getDb } from "@/server/db";

export interface SignInState {
  error?: string;
  email?: string;
  /** Set when the page asks for the authenticator's code (the password was right): sent back with the code. */
  challenge?: string;
}

const safeRedirect = (to: string | undefined) => (to && !to.startsWith("//") ? to : "/");

/**
 * Sign-in form action, in two steps for a staff member with two-factor sign-in: the password, then the code. One
 * message for every failure (SIGN_IN_FAILED); auditing and lockout happen in server/auth/staff.ts (called by Auth.js).
 */
export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const redirectTo = form.get("redirectTo") || undefined;
  if (form.get("challenge")) return codeStep(form, email, redirectTo);
  const parsed = signInSchema.safeParse({ email: form.get("email"), password: form.get("password"), redirectTo });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Enter your email and password.", email };
  try {
    await signIn("credentials", {
      email: parsed.data.email,
      password: parsed.data.password,
      redirectTo: safeRedirect(parsed.data.redirectTo),
    });
    return {};
  } catch (error) {
    const challenge = codeChallengeOf(error);
    if (challenge) return { email, challenge };
    if (error instanceof AuthError) return { error: SIGN_IN_FAILED, email };
    throw error; // the redirect after a successful sign-in
  }
}

async function codeStep(form: FormData, email: string, redirectTo: FormDataEntryValue | undefined): Promise<SignInState> {
  const parsed = signInCodeSchema.safeParse({ challenge: form.get("challenge"), code: form.get("code"), redirectTo });
  const challenge = String(form.get("challenge"));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? SIGN_IN_FAILED, email, challenge };
  try {
    await signIn("credentials", {
      challenge: parsed.data.challenge,
      code: parsed.data.code,
      redirectTo: safeRedirect(parsed.data.redirectTo),
    });
    return {};
  } catch (error) {
    // An expired step goes back to the password; any other failure may try another code (the lockout counts them).
    if (error instanceof AuthError) return { error: SIGN_IN_FAILED, email, challenge: challengeExpired(error) ? undefined : challenge };
    throw error;
  }
}

/** Signing out ends every session of the user (revocation), and is audited. */
export async function signOutAction(): Promise<void> {
  const staff = await currentStaff();
  if (staff) {
    const db = await getDb();
    await revokeSessions(db, staff.id);
    await appendAudit(db, {
      actorId: staff.id,
      actorEmail: staff.email,
      actorRole: staff.role,
      action: "auth.sign_out",
      target: `staff:${staff.id}`,
      outcome: "success",
      ...(await requestMeta()),
    });
  }
  await signOut({ redirectTo: "/sign-in" });
}
