"use client";
import { useActionState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { signInAction, type SignInState } from "@/server/actions/session-sign-in";

/**
 * The one form that is not on `useActionForm`: it posts the server action itself (`<form action>`), so it also
 * signs in before the page has hydrated, and never puts a password in a URL; Auth.js answers a success with a
 * redirect. Its message goes through the same banner as every other form.
 */
export function SignInForm({ redirectTo }: { redirectTo: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, {});
  return (
    <form action={action} className="flex flex-col gap-3" noValidate>
      <FormBanner banner={state.error ? { tone: "error", text: state.error } : undefined} />
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
