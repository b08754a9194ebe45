"use server";
import "server-only";
import { AuthError } from "next-auth";
import { signIn } from "@/auth";
import { signInSchema } from "@/lib/schemas/staff";
import { SIGN_IN_FAILED } from "@/server/auth/staff";

export interface SignInState {
  error?: string;
  email?: string;
}

/** Sign-in form action. Auditing and lockout happen in authenticateStaff (called by Auth.js). */
export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const parsed = signInSchema.safeParse({
    email: form.get("email"),
    password: form.get("password"),
    redirectTo: form.get("redirectTo") || undefined,
  });
  const email = String(form.get("email") ?? "");
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Enter your email and password.", email };
  const redirectTo = parsed.data.redirectTo && !parsed.data.redirectTo.startsWith("//") ? parsed.data.redirectTo : "/";
  try {
    await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirectTo });
    return {};
  } catch (error) {
    if (error instanceof AuthError) return { error: SIGN_IN_FAILED, email };
    throw error; // the redirect after a successful sign-in
  }
}
