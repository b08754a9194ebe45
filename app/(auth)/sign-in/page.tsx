import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { isDemoMode } from "@/lib/env";
import { currentStaff } from "@/server/auth/guard";
import { DEMO_PASSWORD, DEMO_USERS } from "@/server/auth/demo-users";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  if (await currentStaff()) redirect("/");
  const { callbackUrl } = await searchParams;
  let redirectTo = "/";
  try {
    const url = new URL(callbackUrl ?? "/", "http://local");
    redirectTo = url.pathname.startsWith("/sign-in") ? "/" : `${url.pathname}${url.search}`;
  } catch {
    // keep "/"
  }
  const demo = isDemoMode();
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4">
      <div className="w-full max-w-sm">
        <h1 className="mb-1 text-center text-xl font-semibold tracking-tight">Brokerdesk</h1>
        <p className="mb-5 text-center text-sm text-slate-600">Staff sign-in</p>
        <div className="rounded border border-slate-200 bg-white p-5 shadow-sm">
          <SignInForm redirectTo={redirectTo} />
        </div>
        {demo ? (
          <div className="mt-4 rounded border border-amber-200 bg-amber-50 p-3 text-xs text-amber-900" data-testid="demo-notice">
            <p className="font-semibold">Demo mode: embedded sandbox upstream and demo data.</p>
            <p className="mt-1">
              Password <code className="font-mono">{DEMO_PASSWORD}</code> for{" "}
              {DEMO_USERS.map((u, i) => (
                <span key={u.email}>
                  {i ? ", " : ""}
                  <code className="font-mono">{u.email}</code>
                </span>
              ))}
              .
            </p>
          </div>
        ) : null}
      </div>
    </main>
  );
}
