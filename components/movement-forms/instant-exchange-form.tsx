"use client";
import { useEffect, useState } from "react";
import type { z } from "zod";
import { fieldId, FormSection, useFieldError } from "@/components/form/fields";
import { Field } from "@/components/ui/field";
import { formatMoney } from "@/lib/money";
import type { MovementAccount } from "@/lib/schemas/movement-form-data";
import { instantExchangeSchema, type InstantExchangeRequest } from "@/lib/schemas/movements";
import { createInstantExchangeAction } from "@/server/actions/movements";
import { VirtualAccountSection } from "./account-picker";
import { CashLine } from "./account-cash";
import { ExchangeFields, useExchangeForm } from "./exchange-fields";
import { estimateOf, FxQuotePanel } from "./fx-quote";
import { MovementFormShell } from "./movement-form-shell";
import { accountLabel } from "./labels";

type Values = z.input<typeof instantExchangeSchema>;

/**
 * A conversion at a virtual account for the amount the live quote gives: to_amount is computed from the quote
 * (decimal.js, rounded down to the target currency) and follows each re-quote; the server checks it again.
 */
export function InstantExchangeForm({ account: initial }: { account?: MovementAccount }) {
  const [account, setAccount] = useState(initial);
  const blank = (id: string): Values => ({
    client_request_id: id,
    account_id: account?.account_id ?? "",
    from_currency: "USD",
    to_currency: "HKD",
    from_amount: "",
    to_amount: "",
  });
  const { m, from, to, quote, cash, estimate } = useExchangeForm<Values, InstantExchangeRequest>(
    { kind: "INSTANT_EXCHANGE", schema: instantExchangeSchema, blank, action: createInstantExchangeAction },
    account?.account_id,
  );
  const computed = estimate ?? "";
  const { setValue } = m.form;
  useEffect(() => setValue("to_amount", computed), [computed, setValue]);
  // A review made on a quote that no longer gives the same amount is not sent.
  const reviewStale =
    !!m.review && !!quote.data && estimateOf(m.review.from_amount, quote.data.fx_rate, m.review.to_currency) !== m.review.to_amount;
  useEffect(() => {
    if (reviewStale) m.edit();
  }, [reviewStale, m]);

  return (
    <MovementFormShell
      m={m}
      aside={<FxQuotePanel quote={quote} />}
      summary={(r) => [
        ["Account", accountLabel(account, r.account_id)],
        [
          "Sell",
          <b key="a" data-testid="review-amount">
            {formatMoney(r.from_amount, r.from_currency)}
          </b>,
        ],
        [
          "Receive",
          <b key="t" data-testid="review-to-amount">
            {formatMoney(r.to_amount, r.to_currency)}
          </b>,
        ],
        ["Rate", quote.data ? `${quote.data.fx_rate}` : "—"],
      ]}
    >
      <VirtualAccountSection
        account={account}
        onAccount={(a) => {
          setAccount(a);
          m.form.setValue("account_id", a?.account_id ?? "", { shouldValidate: m.form.formState.isSubmitted });
        }}
      />
      <FormSection title="Conversion">
        <ExchangeFields columns="md:grid-cols-[8rem_8rem_minmax(0,1fr)_minmax(0,1fr)]" placeholder="1000.00">
          <ComputedAmount label={`Receive (${to ?? ""})`} amount={computed} currency={to} />
        </ExchangeFields>
        {account ? <CashLine label={`Available ${from ?? ""}`} query={cash} testId="available-cash" /> : null}
      </FormSection>
    </MovementFormShell>
  );
}

/**
 * The amount to receive as the live quote gives it (to_amount, set on the form by the quote): shown as an amount,
 * grouped and with its currency like every other, not as a raw decimal in an input; the server's word on it (a
 * stale quote) under it.
 */
function ComputedAmount({ label, amount, currency }: { label: string; amount: string; currency: string | undefined }) {
  const id = fieldId("to_amount");
  const error = useFieldError("to_amount");
  return (
    <Field id={id} label={label} error={error} hint="From the live quote, rounded down">
      {(describedBy) => (
        <output
          id={id}
          aria-describedby={describedBy}
          className="flex h-8 items-center justify-end rounded border border-slate-200 bg-slate-50 px-2 text-sm tabular-nums"
        >
          {amount ? formatMoney(amount, currency) : "—"}
        </output>
      )}
    </Field>
  );
}
