"use client";
import { useWatch } from "react-hook-form";
import type { z } from "zod";
import { FormSection } from "@/components/form/fields";
import { convertAt, formatMoney, isCurrency } from "@/lib/money";
import type { MovementAccount } from "@/lib/schemas/movement-form-data";
import { fxRequestSchema, type FxRequestRequest } from "@/lib/schemas/movements";
import { createFxRequestAction } from "@/server/actions/movements";
import { CashLine, overAvailableCash, useAccountCash } from "./account-cash";
import { ExchangeFields } from "./exchange-fields";
import { FxQuotePanel, useFxQuote } from "./fx-quote";
import { MovementFormShell } from "./movement-form-shell";
import { accountLabel } from "./labels";
import { useMovementForm } from "./use-movement-form";

type Values = z.input<typeof fxRequestSchema>;

/** A conversion at the omnibus master account; the live quote shows what it would give now. */
export function FxRequestForm({ master }: { master: MovementAccount }) {
  const blank = (id: string): Values => ({
    client_request_id: id,
    account_id: master.account_id,
    from_currency: "USD",
    to_currency: "HKD",
    from_amount: "",
  });
  const m = useMovementForm<Values, FxRequestRequest>({
    kind: "FX_EXCHANGE",
    schema: fxRequestSchema,
    blank,
    action: createFxRequestAction,
    check: (r, form) => {
      const over = overAvailableCash(cash.data, r.account_id, r.from_currency, r.from_amount);
      if (over) form.setError("from_amount", { message: over }, { shouldFocus: true });
      return !over;
    },
  });
  const [from, to, amount] = useWatch({ control: m.form.control, name: ["from_currency", "to_currency", "from_amount"] });
  const quote = useFxQuote(from, to);
  const cash = useAccountCash(master.account_id, from);
  const estimate = estimateOf(amount, quote.data?.fx_rate, to);

  return (
    <MovementFormShell
      m={m}
      aside={<FxQuotePanel quote={quote} />}
      summary={(r) => [
        ["Account", accountLabel(master, r.account_id)],
        [
          "Sell",
          <b key="a" data-testid="review-amount">
            {formatMoney(r.from_amount, r.from_currency)}
          </b>,
        ],
        ["Buy", r.to_currency],
        [
          "At the quote now",
          quote.data
            ? `${quote.data.fx_rate} → about ${formatMoney(estimateOf(r.from_amount, quote.data.fx_rate, r.to_currency), r.to_currency)}`
            : "—",
        ],
      ]}
    >
      <FormSection title="Master account">
        <p className="text-sm">{accountLabel(master, master.account_id)}</p>
      </FormSection>
      <FormSection title="Conversion">
        <ExchangeFields columns="md:grid-cols-[8rem_8rem_minmax(0,16rem)]" placeholder="10000.00" />
        <CashLine label={`Available ${from ?? ""} at the master account`} query={cash} testId="available-cash" />
        {estimate ? (
          <p className="flex max-w-[33rem] items-baseline justify-between gap-3 text-sm">
            <span className="text-slate-600">At the quote now (converted at the upstream&apos;s rate when it executes)</span>
            <b className="whitespace-nowrap font-medium tabular-nums" data-testid="fx-estimate">
              {formatMoney(estimate, to)}
            </b>
          </p>
        ) : null}
      </FormSection>
    </MovementFormShell>
  );
}

/** What `amount` gives at `rate`, rounded down to the target currency; undefined while either is missing or invalid. */
export function estimateOf(amount: string | undefined, rate: string | undefined, to: string | undefined): string | undefined {
  if (!amount || !rate || !to || !isCurrency(to) || !/^\d+(\.\d+)?$/.test(amount.trim())) return undefined;
  return convertAt(amount.trim(), rate, to);
}
