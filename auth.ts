import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { authConfig } from "./auth.config";
import { signInSchema } from "@/lib/schemas/staff";
import { getDb } from "@/server/db";
import { authenticateStaff, type SignInFailure } from "@/server/auth/staff";
import { metaFromHeaders } from "@/server/auth/request-meta";

/** Carries why a sign-in failed to the sign-in action (Auth.js passes `code` through). */
class SignInRefused extends CredentialsSignin {
  constructor(reason: SignInFailure) {
    super(reason);
    this.code = reason;
  }
}

export const { auth, handlers, signIn, signOut } = NextAuth({
  ...authConfig,
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      async authorize(raw, request) {
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) throw new SignInRefused("invalid");
        const db = await getDb();
        const result = await authenticateStaff(db, parsed.data.email, parsed.data.password, metaFromHeaders(request.headers));
        if (!result.ok) throw new SignInRefused(result.reason);
        return { id: result.user.id, email: result.user.email, name: result.user.name, role: result.user.role };
      },
    }),
  ],
});
