"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert, Field } from "@/components/ui/field";
import { actionMessage } from "@/lib/errors";
import { revealPiiSchema, type RevealPiiValues } from "@/lib/schemas/virtual-account";
import type { AddressView } from "@/lib/schemas/virtual-account-view";
import { revealAccountPii } from "@/server/actions/accounts-reveal";

export interface RevealedPii {
  tax_id?: string;
  home_address?: AddressView;
  mail_address?: AddressView;
  china_connect_id_number?: string;
}

/**
 * Compliance reveal: a stated reason, sent to an audited action; the unmasked values live only in this page's
 * memory (a reload masks them again).
 */
export function RevealPii({ accountId, onRevealed }: { accountId: string; onRevealed: (pii: RevealedPii) => void }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const form = useForm<RevealPiiValues>({ resolver: zodResolver(revealPiiSchema), defaultValues: { account_id: accountId, reason: "" } });
  const reasonError = form.formState.errors.reason?.message;

  if (!open) {
    return (
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Reveal PII
      </Button>
    );
  }
  const onSubmit = form.handleSubmit(async (values) => {
    const res = await revealAccountPii(values);
    if (!res.ok) {
      if (res.fieldErrors?.reason) form.setError("reason", { message: res.fieldErrors.reason });
      return setError(actionMessage(res));
    }
    onRevealed(res.data);
    setOpen(false);
  });
  return (
    <form onSubmit={onSubmit} noValidate className="mt-2 flex w-full flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-2">
      {error ? <Alert>{error}</Alert> : null}
      <Field id="reveal-reason" label="Reason for revealing (recorded in the audit trail)" error={reasonError}>
        <textarea id="reveal-reason" rows={2} aria-invalid={!!reasonError} className="rounded border border-slate-300 bg-white px-2 py-1 text-sm" {...form.register("reason")} />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? "Revealing…" : "Reveal"}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
