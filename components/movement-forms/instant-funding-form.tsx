"use client";
import { useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import type { z } from "zod";
import { formFields, FormSection } from "@/components/form/fields";
import { compareDecimal, formatMoney } from "@/lib/money";
import type { MovementAccount } from "@/lib/schemas/movement-form-data";
import { instantFundingSchema, type InstantFundingRequest } from "@/lib/schemas/movements";
import { createInstantFundingAction } from "@/server/actions/movements";
import { VirtualAccountSection } from "./account-picker";
import { CashLine, useAccountCash } from "./account-cash";
import { MovementFormShell } from "./movement-form-shell";
import { accountLabel } from "./labels";
import { useMovementForm } from "./use-movement-form";

type Values = z.input<typeof instantFundingSchema>;
const { CurrencyField, TextField } = formFields<Values>();

/** A deposit into or a withdrawal from a virtual account; a withdrawal is limited to the withdrawable cash. */
export function InstantFundingForm({
  account: initial,
  type: initialType,
}: {
  account?: MovementAccount;
  type?: "DEPOSIT" | "WITHDRAWAL";
}) {
  const [account, setAccount] = useState(initial);
  const blank = (id: string): Values => ({
    client_request_id: id,
    account_id: account?.account_id ?? "",
    type: initialType ?? "DEPOSIT",
    currency: "USD",
    amount: "",
  });
  const m = useMovementForm<Values, InstantFundingRequest>({
    kind: "INSTANT_FUNDING",
    schema: instantFundingSchema,
    blank,
    action: createInstantFundingAction,
    check: (r, form) => {
      const withdrawable = cash.data?.account_id === r.account_id && cash.data.currency === r.currency ? cash.data.available : undefined;
      if (r.type === "WITHDRAWAL" && withdrawable !== undefined && compareDecimal(r.amount, withdrawable) > 0) {
        form.setError(
          "amount",
          { message: `More than the withdrawable cash: ${formatMoney(withdrawable, r.currency)}` },
          { shouldFocus: true },
        );
        return false;
      }
      return true;
    },
  });
  const [type, currency] = useWatch({ control: m.form.control, name: ["type", "currency"] });
  const cash = useAccountCash(account?.account_id, currency);

  return (
    <MovementFormShell
      m={m}
      summary={(r) => [
        ["Account", accountLabel(account, r.account_id)],
        ["Type", r.type === "DEPOSIT" ? "Deposit" : "Withdrawal"],
        [
          "Amount",
          <b key="a" data-testid="review-amount">
            {formatMoney(r.amount, r.currency)}
          </b>,
        ],
      ]}
    >
      <VirtualAccountSection
        account={account}
        onAccount={(a) => {
          setAccount(a);
          m.form.setValue("account_id", a?.account_id ?? "", { shouldValidate: m.form.formState.isSubmitted });
        }}
      />
      <FormSection title="Funding">
        <TypeChoice />
        <div className="grid gap-3 md:grid-cols-[8rem_minmax(0,16rem)]">
          <CurrencyField name="currency" label="Currency" required />
          <TextField name="amount" label="Amount" required inputMode="decimal" placeholder="1000.00" className="text-right tabular-nums" />
        </div>
        {account ? (
          <CashLine label={type === "WITHDRAWAL" ? "Withdrawable cash" : "Available cash now"} query={cash} testId="withdrawable-cash" />
        ) : null}
      </FormSection>
    </MovementFormShell>
  );
}

/** Deposit or withdrawal as two radio buttons (labels and keyboard work). */
function TypeChoice() {
  const { register } = useFormContext<Values>();
  return (
    <div role="radiogroup" aria-label="Type" className="flex flex-col gap-1">
      <span className="text-xs font-medium text-slate-700">Type</span>
      <div className="flex h-8 w-64 overflow-hidden rounded border border-slate-300 text-sm">
        {(["DEPOSIT", "WITHDRAWAL"] as const).map((v) => (
          <label
            key={v}
            className="flex flex-1 cursor-pointer items-center justify-center px-2 has-[:checked]:bg-blue-700 has-[:checked]:text-white has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-400"
          >
            <input type="radio" value={v} {...register("type")} className="sr-only" />
            {v === "DEPOSIT" ? "Deposit" : "Withdrawal"}
          </label>
        ))}
      </div>
    </div>
  );
}
