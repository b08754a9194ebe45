"use client";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Alert, Field, Input } from "@/components/ui/field";
import { signInAction, type SignInState } from "@/server/actions/session-sign-in";

export function SignInForm({ redirectTo }: { redirectTo: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, {});
  return (
    <form action={action} className="flex flex-col gap-3" noValidate>
      {state.error ? <Alert>{state.error}</Alert> : null}
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field id="email" label="Email">
        <Input id="email" name="email" type="email" autoComplete="username" required autoFocus defaultValue={state.email} />
      </Field>
      <Field id="password" label="Password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" disabled={pending} className="mt-1 w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
