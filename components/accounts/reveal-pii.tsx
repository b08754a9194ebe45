"use client";
import { useState } from "react";
import { ActionForm } from "@/components/form/action-form";
import { TextareaField } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { revealPiiSchema, type RevealPiiValues } from "@/lib/schemas/virtual-account";
import type { AddressView } from "@/lib/schemas/virtual-account-view";
import { revealAccountPii } from "@/server/actions/accounts";

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
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: revealPiiSchema,
    defaultValues: { account_id: accountId, reason: "" },
    action: revealAccountPii,
    onSuccess: (pii) => {
      onRevealed(pii);
      setOpen(false);
    },
  });

  if (!open) {
    return (
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
        Reveal PII
      </Button>
    );
  }
  return (
    <ActionForm
      form={form}
      onSubmit={onSubmit}
      banner={banner}
      className="mt-2 flex w-full flex-col gap-2 rounded border border-amber-300 bg-amber-50 p-2"
    >
      <TextareaField<RevealPiiValues> name="reason" label="Reason for revealing (recorded in the audit trail)" required rows={2} />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? "Revealing…" : "Reveal"}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </ActionForm>
  );
}
