"use client";
import type { z } from "zod";
import { FormSection } from "@/components/form/fields";
import { formatMoney } from "@/lib/money";
import type { MovementAccount } from "@/lib/schemas/movement-form-data";
import { fxRequestSchema, type FxRequestRequest } from "@/lib/schemas/movements";
import { createFxRequestAction } from "@/server/actions/movements";
import { CashLine } from "./account-cash";
import { ExchangeFields, useExchangeForm } from "./exchange-fields";
import { estimateOf, FxQuotePanel } from "./fx-quote";
import { MovementFormShell } from "./movement-form-shell";
import { accountLabel } from "./labels";

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
  const { m, from, to, quote, cash, estimate } = useExchangeForm<Values, FxRequestRequest>(
    { kind: "FX_EXCHANGE", schema: fxRequestSchema, blank, action: createFxRequestAction },
    master.account_id,
  );

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
