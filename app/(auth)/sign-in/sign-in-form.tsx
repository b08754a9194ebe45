"use client";
import { useActionState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { signInAction, type SignInState } from "@/server/actions/session";

/**
 * The one form that is not on `useActionForm`: it posts the server action itself (`<form action>`), so it also
 * signs in before the page has hydrated, and never puts a password in a URL; Auth.js answers a success with a
 * redirect. Its message goes through the same banner as every other form. For a staff member with two-factor
 * sign-in the server answers a right password with a challenge, and the form asks for the authenticator's code.
 */
export function SignInForm({ redirectTo }: { redirectTo: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, {});
  const banner = state.error ? ({ tone: "error", text: state.error } as const) : undefined;
  if (state.challenge) {
    return (
      <form action={action} className="flex flex-col gap-3" noValidate>
        <FormBanner banner={banner} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="challenge" value={state.challenge} />
        <input type="hidden" name="email" value={state.email ?? ""} />
        <p className="text-sm text-slate-700">
          Enter the code your authenticator app shows for <span className="font-medium">{state.email}</span>.
        </p>
        <Field id="code" label="Authentication code" required>
          <Input
            id="code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            required
            autoFocus
            className="font-mono tracking-widest"
          />
        </Field>
        <Button type="submit" disabled={pending} className="mt-1 w-full">
          {pending ? "Checking…" : "Verify code"}
        </Button>
        <a href="/sign-in" className="text-center text-xs text-slate-600 hover:underline">
          Sign in as someone else
        </a>
      </form>
    );
  }
  return (
    <form action={action} className="flex flex-col gap-3" noValidate>
      <FormBanner banner={banner} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field id="email" label="Email" required>
        <Input id="email" name="email" type="email" autoComplete="username" required autoFocus defaultValue={state.email} />
      </Field>
      <Field id="password" label="Password" required>
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" disabled={pending} className="mt-1 w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
