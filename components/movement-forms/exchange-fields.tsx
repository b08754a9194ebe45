"use client";
import type { ReactNode } from "react";
import { formFields } from "@/components/form/fields";

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
