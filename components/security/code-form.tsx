"use client";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import type { ActionResult } from "@/lib/errors";
import { twoFactorCodeSchema, type TwoFactorCodeInput } from "@/lib/schemas/two-factor";

const { TextField } = formFields<TwoFactorCodeInput>();

/** One code from the authenticator app for an action (confirm the enrolment, turn it off); `confirm` asks first when given. */
export function CodeForm({
  action,
  submitLabel,
  danger,
  confirm,
}: {
  action: (input: TwoFactorCodeInput) => Promise<ActionResult<unknown>>;
  submitLabel: string;
  danger?: boolean;
  confirm?: string;
}) {
  const { form, onSubmit, submit, banner, busy } = useActionForm({
    schema: twoFactorCodeSchema,
    defaultValues: { otp: "" },
    action,
    onValid: async (values) => {
      if (!confirm || window.confirm(confirm)) await submit(values);
    },
  });
  return (
    <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex max-w-xs flex-col gap-3">
      <TextField
        name="otp"
        label="Code from the app"
        required
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        className="font-mono tracking-widest"
      />
      <Button type="submit" variant={danger ? "danger" : "primary"} disabled={busy}>
        {busy ? "Checking…" : submitLabel}
      </Button>
    </ActionForm>
  );
}
