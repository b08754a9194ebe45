import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { authConfig } from "./auth.config";
import { signInCodeSchema, signInSchema } from "@/lib/schemas/staff";
import { getDb } from "@/server/db";
import { authenticateStaff, completeSignInWithCode, type SignInResult } from "@/server/auth/staff";
import { authLogger } from "@/server/auth/auth-log";
import { metaFromHeaders } from "@/server/auth/request-meta";

/**
 * Carries why a sign-in failed to the sign-in action (Auth.js passes the error through to a server-side signIn):
 * `code` is the reason; a password that was right for a staff member who signs in with a code too carries the
 * challenge the page sends back with the code.
 */
class SignInRefused extends CredentialsSignin {
  constructor(
    reason: string,
    readonly challenge?: string,
  ) {
    super(reason);
    this.code = reason;
  }
}

/** The challenge of a refused sign-in that asks for a code (the sign-in action's second step), if it is one. */
export function codeChallengeOf(error: unknown): string | undefined {
  return error instanceof SignInRefused && error.code === "code_required" ? error.challenge : undefined;
}

/** Whether the refusal sends the person back to the password (their code step expired). */
export const challengeExpired = (error: unknown) => error instanceof SignInRefused && error.code === "challenge_expired";

export const { auth, handlers, signIn, signOut } = NextAuth({
  ...authConfig,
  logger: authLogger(),
  providers: [
    Credentials({
      credentials: { email: {}, password: {}, challenge: {}, code: {} },
      async authorize(raw, request) {
        const meta = metaFromHeaders(request.headers);
        const db = await getDb();
        let result: SignInResult;
        if (raw.challenge) {
          const parsed = signInCodeSchema.safeParse(raw);
          if (!parsed.success) throw new SignInRefused("invalid");
          result = await completeSignInWithCode(db, parsed.data.challenge, parsed.data.code, meta);
        } else {
          const parsed = signInSchema.safeParse(raw);
          if (!parsed.success) throw new SignInRefused("invalid");
          result = await authenticateStaff(db, parsed.data.email, parsed.data.password, meta);
        }
        if (!result.ok) throw new SignInRefused(result.reason, result.reason === "code_required" ? result.challenge : undefined);
        return { id: result.user.id, email: result.user.email, name: result.user.name, role: result.user.role };
      },
    }),
  ],
});
