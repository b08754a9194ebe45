"use client";
import { useState } from "react";
import type { MovementAccount } from "@/lib/schemas/movement-form-data";
import type { JournalSide } from "./account-picker";
import { accountLabel } from "./labels";
import type { SummaryRow } from "./movement-form-shell";

/** The accounts a journal's page opens with (from its URL). */
export interface JournalStart {
  from?: MovementAccount;
  to?: MovementAccount;
}

/** What a journal's form is asked of its account fields. */
interface JournalFields {
  setValue(name: JournalSide, value: string, options: { shouldValidate: boolean }): void;
  formState: { isSubmitted: boolean };
}

/**
 * A journal's two accounts (cash or positions): the ones a page opened with, then what the pickers choose, each
 * written to its form field and named in the review.
 */
export function useJournalAccounts(initial: JournalStart) {
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  return {
    from,
    /** The blank form's request id and account fields. */
    blank: (clientRequestId: string) => ({
      client_request_id: clientRequestId,
      from_account: from?.account_id ?? "",
      to_account: to?.account_id ?? "",
    }),
    /** The review's From and To. */
    summary: (r: Record<JournalSide, string>): SummaryRow[] => [
      ["From", accountLabel(from, r.from_account)],
      ["To", accountLabel(to, r.to_account)],
    ],
    /** `JournalAccounts`' props: a choice goes to its field, validated again once the form has been submitted. */
    pickers: (form: JournalFields) => ({
      from,
      to,
      onPick: (side: JournalSide, a: MovementAccount | undefined) => {
        (side === "from_account" ? setFrom : setTo)(a);
        form.setValue(side, a?.account_id ?? "", { shouldValidate: form.formState.isSubmitted });
      },
    }),
  };
}
