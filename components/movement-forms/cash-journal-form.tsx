"use client";
import { useWatch } from "react-hook-form";
import type { z } from "zod";
import { formFields, FormSection } from "@/components/form/fields";
import { formatMoney } from "@/lib/money";
import { cashJournalSchema, type CashJournalRequest } from "@/lib/schemas/movements";
import { createCashJournalAction } from "@/server/actions/movements";
import { JournalAccounts } from "./account-picker";
import { CashLine, overAvailableCash, useAccountCash } from "./account-cash";
import { MovementFormShell } from "./movement-form-shell";
import { useJournalAccounts, type JournalStart } from "./use-journal-accounts";
import { useMovementForm } from "./use-movement-form";

type Values = z.input<typeof cashJournalSchema>;
const { CurrencyField, TextField } = formFields<Values>();

/** Cash from the master account or a virtual account to another: the source's available cash is the limit. */
export function CashJournalForm(initial: JournalStart) {
  const accounts = useJournalAccounts(initial);
  const m = useMovementForm<Values, CashJournalRequest>({
    kind: "CASH_JOURNAL",
    schema: cashJournalSchema,
    blank: (id) => ({ ...accounts.blank(id), currency: "USD", amount: "" }),
    action: createCashJournalAction,
    check: (r, form) => {
      const over = overAvailableCash(cash.data, r.from_account, r.currency, r.amount);
      if (over) form.setError("amount", { message: over }, { shouldFocus: true });
      return !over;
    },
  });
  const currency = useWatch({ control: m.form.control, name: "currency" });
  const cash = useAccountCash(accounts.from?.account_id, currency);

  return (
    <MovementFormShell
      m={m}
      summary={(r) => [
        ...accounts.summary(r),
        [
          "Amount",
          <b key="a" data-testid="review-amount">
            {formatMoney(r.amount, r.currency)}
          </b>,
        ],
      ]}
    >
      <JournalAccounts scope="all" {...accounts.pickers(m.form)} />
      <FormSection title="Amount">
        <div className="grid gap-3 md:grid-cols-[8rem_minmax(0,16rem)]">
          <CurrencyField name="currency" label="Currency" required />
          <TextField name="amount" label="Amount" required inputMode="decimal" placeholder="5000.00" className="text-right tabular-nums" />
        </div>
        {accounts.from ? <CashLine label={`Available in ${accounts.from.account_number}`} query={cash} testId="available-cash" /> : null}
      </FormSection>
    </MovementFormShell>
  );
}
