"use client";
import type { ReactNode } from "react";
import { useWatch, type FieldValues, type UseFormReturn } from "react-hook-form";
import { formFields } from "@/components/form/fields";
import { overAvailableCash, useAccountCash } from "./account-cash";
import { estimateOf, useFxQuote } from "./fx-quote";
import { useMovementForm, type MovementFormOptions } from "./use-movement-form";

/** The fields both exchanges share (`exchangeShape` of lib/schemas/movements.ts). */
type ExchangeValues = { from_currency: string; to_currency: string; from_amount: string };
const { CurrencyField, TextField } = formFields<ExchangeValues>();

/**
 * What an exchange sells and buys, an FX request's at the master account as an instant exchange's at a virtual one:
 * Sell, Buy and Amount to sell in one row of `columns` (a grid template), then what the form adds to that row.
 */
export function ExchangeFields({ columns, placeholder, children }: { columns: string; placeholder: string; children?: ReactNode }) {
  return (
    <div className={`grid gap-3 ${columns}`}>
      <CurrencyField name="from_currency" label="Sell" required />
      <CurrencyField name="to_currency" label="Buy" required />
      <TextField
        name="from_amount"
        label="Amount to sell"
        required
        inputMode="decimal"
        placeholder={placeholder}
        className="text-right tabular-nums"
      />
      {children}
    </div>
  );
}

/**
 * What both exchange forms do around their fields: the amount to sell is checked against the account's available
 * cash before the review, and the pair's live quote gives an estimate of what it buys.
 */
export function useExchangeForm<
  V extends ExchangeValues & FieldValues,
  O extends ExchangeValues & { client_request_id: string; account_id: string },
>(options: Omit<MovementFormOptions<V, O>, "check">, accountId: string | undefined) {
  const m = useMovementForm<V, O>({
    ...options,
    check: (r, form) => {
      const over = overAvailableCash(cash.data, r.account_id, r.from_currency, r.from_amount);
      if (over) (form as unknown as UseFormReturn<ExchangeValues>).setError("from_amount", { message: over }, { shouldFocus: true });
      return !over;
    },
  });
  const control = (m.form as unknown as UseFormReturn<ExchangeValues>).control;
  const [from, to, amount] = useWatch({ control, name: ["from_currency", "to_currency", "from_amount"] });
  const quote = useFxQuote(from, to);
  const cash = useAccountCash(accountId, from);
  return { m, from, to, quote, cash, estimate: estimateOf(amount, quote.data?.fx_rate, to) };
}
