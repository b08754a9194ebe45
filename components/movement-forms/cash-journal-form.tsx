"use client";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import type { z } from "zod";
import { formFields, FormSection } from "@/components/form/fields";
import { compareDecimal, CURRENCIES, formatMoney } from "@/lib/money";
import type { MovementAccount } from "@/lib/schemas/movement-form-data";
import { cashJournalSchema, type CashJournalRequest } from "@/lib/schemas/movements";
import { createCashJournalAction } from "@/server/actions/movements-cash-journal";
import { JournalAccounts, type JournalSide } from "./account-picker";
import { CashLine, useAccountCash } from "./account-cash";
import { MovementFormShell } from "./movement-form-shell";
import { accountLabel } from "./labels";
import { useMovementForm } from "./use-movement-form";

type Values = z.input<typeof cashJournalSchema>;
const { SelectField, TextField } = formFields<Values>();

/** Cash from the master account or a virtual account to another: the source's available cash is the limit. */
export function CashJournalForm({ from: initialFrom, to: initialTo }: { from?: MovementAccount; to?: MovementAccount }) {
  const [from, setFrom] = useState(initialFrom);
  const [to, setTo] = useState(initialTo);
  const blank = (id: string): Values => ({
    client_request_id: id,
    from_account: from?.account_id ?? "",
    to_account: to?.account_id ?? "",
    currency: "USD",
    amount: "",
  });
  const m = useMovementForm<Values, CashJournalRequest>({
    kind: "CASH_JOURNAL",
    schema: cashJournalSchema,
    blank,
    action: createCashJournalAction,
    check: (r, form) => {
      const available = cash.data?.account_id === r.from_account && cash.data.currency === r.currency ? cash.data.available : undefined;
      if (available !== undefined && compareDecimal(r.amount, available) > 0) {
        form.setError("amount", { message: `More than the available cash: ${formatMoney(available, r.currency)}` }, { shouldFocus: true });
        return false;
      }
      return true;
    },
  });
  const currency = useWatch({ control: m.form.control, name: "currency" });
  const cash = useAccountCash(from?.account_id, currency);
  const pick = (side: JournalSide, a: MovementAccount | undefined) => {
    (side === "from_account" ? setFrom : setTo)(a);
    m.form.setValue(side, a?.account_id ?? "", { shouldValidate: m.form.formState.isSubmitted });
  };

  return (
    <MovementFormShell
      m={m}
      summary={(r) => [
        ["From", accountLabel(from, r.from_account)],
        ["To", accountLabel(to, r.to_account)],
        [
          "Amount",
          <b key="a" data-testid="review-amount">
            {formatMoney(r.amount, r.currency)}
          </b>,
        ],
      ]}
    >
      <JournalAccounts scope="all" from={from} to={to} onPick={pick} />
      <FormSection title="Amount">
        <div className="grid gap-3 md:grid-cols-[8rem_minmax(0,16rem)]">
          <SelectField name="currency" label="Currency" required>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </SelectField>
          <TextField name="amount" label="Amount" required inputMode="decimal" placeholder="5000.00" className="text-right tabular-nums" />
        </div>
        {from ? <CashLine label={`Available in ${from.account_number}`} query={cash} testId="available-cash" /> : null}
      </FormSection>
    </MovementFormShell>
  );
}
