"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { ReviewForm } from "@/components/form/review-form";
import { FormSection } from "@/components/form/fields";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { newClientId } from "@/lib/ids";
import { MARKET_CURRENCY } from "@/lib/instruments";
import { blockingFindings, type PreTradeCode } from "@/lib/pre-trade";
import {
  blankTicket,
  COMBO_LABELS,
  COMBOS_BY_MARKET,
  OPTION_ORDER_TYPES,
  SESSIONS,
  STOCK_ORDER_TYPES,
  TICKET_MARKET_LABELS,
  TICKET_MARKETS,
  ticketSchema,
  type TicketInstrumentParams,
  type TicketValues,
} from "@/lib/schemas/order-ticket";
import { ticketFingerprint } from "@/lib/schemas/order-ticket-wire";
import type { TicketAccount, TicketInstrument, TicketPlaced, TicketPreview } from "@/lib/schemas/order-ticket-data";
import { placeOrderTicket, previewOrderTicket } from "@/server/actions/orders";
import { TicketAccountPicker, useTicketAccount } from "./ticket-account";
import { TicketInstrumentLookup } from "./ticket-instrument";
import { TicketOptionLegs } from "./ticket-options";
import { TicketOrderFields } from "./ticket-order-fields";
import { PlacedSummary, PreTradeChecks, PreviewSummary } from "./ticket-preview";

/**
 * The ticket's one client_order_id: made when the ticket is first sent and kept while its content stays the same,
 * so a double click, a retry after a timeout or a Place after the Preview all name the same order; a changed
 * ticket is another order and gets another id.
 */
function useTicketId() {
  const current = useRef<{ fingerprint: string; id: string }>(undefined);
  const idFor = useCallback((values: TicketValues) => {
    const fingerprint = ticketFingerprint(values);
    if (current.current?.fingerprint !== fingerprint) current.current = { fingerprint, id: newClientId("ord") };
    return current.current.id;
  }, []);
  const forget = useCallback(() => (current.current = undefined), []);
  return { idFor, forget };
}

export function OrderTicket({
  initialAccount,
  initialInstrument,
}: {
  initialAccount?: TicketAccount;
  initialInstrument?: TicketInstrumentParams;
}) {
  const { idFor, forget } = useTicketId();
  const [preview, setPreview] = useState<{ data: TicketPreview; values: TicketValues; fingerprint: string }>();
  const [placed, setPlaced] = useState<TicketPlaced>();
  const [overrides, setOverrides] = useState<PreTradeCode[]>([]);
  const [instrument, setInstrument] = useState<TicketInstrument>();
  const [round, setRound] = useState(0); // a new ticket remounts the lookups (their typed text is their own state)
  const { form, onSubmit, banner, setBanner, busy } = useActionForm<TicketValues, TicketValues, TicketPreview>({
    schema: ticketSchema,
    defaultValues: { ...blankTicket(initialAccount), ...(initialInstrument ? { market: initialInstrument.market } : {}) },
    action: (values) => previewOrderTicket({ ...values, client_order_id: idFor(values) }),
    onSuccess: (data) => {
      const values = form.getValues();
      setPreview({ data, values, fingerprint: ticketFingerprint(values) });
      setOverrides([]);
    },
    onFailure: () => setPreview(undefined),
  });
  const place = useAction({
    networkError: "The server could not be reached. Place again: it is the same order, so it cannot be placed twice.",
  });
  const { control, setValue, getValues } = form;
  const all = useWatch({ control }) as TicketValues;
  const stale = preview && preview.fingerprint !== ticketFingerprint(all);
  const blocked = !!preview && blockingFindings(preview.data.checks, overrides).length > 0;
  const account = useTicketAccount(all.account_id ?? "", setValue, initialAccount);

  // What a market or instrument type allows: reset choices it does not offer.
  const [market, type] = [all.market, all.instrument_type];
  useEffect(() => {
    const v = getValues();
    const types: readonly string[] = type === "OPTION" ? OPTION_ORDER_TYPES : STOCK_ORDER_TYPES[market];
    if (!types.includes(v.order_type)) setValue("order_type", "LIMIT");
    if (!(SESSIONS[market] as readonly string[]).includes(v.trading_session)) setValue("trading_session", "CORE");
    if (type === "OPTION" || !COMBOS_BY_MARKET[market].includes(v.combo)) setValue("combo", "NORMAL");
    if (v.side === "SHORT" && (market !== "US" || type === "OPTION")) setValue("side", "BUY");
    if (type === "OPTION") setValue("entrust_type", "QTY");
    if (type === "EQUITY" && v.legs.length) setValue("legs", []);
  }, [market, type, getValues, setValue]);

  const doPlace = () => {
    if (!preview || stale) return;
    const values = preview.values;
    void place.run(() => placeOrderTicket({ ...values, client_order_id: idFor(values), overrides }), {
      onSuccess: (data) => {
        setPlaced(data);
        forget(); // the next ticket, even with the same content, is a new order
      },
      onFailure: (_result, fieldErrors) => {
        fieldErrors.forEach(([name, message], i) => form.setError(name as keyof TicketValues, { message }, { shouldFocus: i === 0 }));
        setPreview(undefined);
      },
    });
  };

  const startOver = () => {
    setPlaced(undefined);
    setPreview(undefined);
    setBanner(undefined);
    place.setBanner(undefined);
    form.reset({ ...blankTicket(account.data), market: getValues("market") });
    setRound((r) => r + 1);
  };

  const currency = MARKET_CURRENCY[all.market];
  const panel = (
    <>
      <FormBanner banner={place.banner} />
      {placed ? (
        <PlacedSummary placed={placed} onNew={startOver} />
      ) : (
        <>
          {instrument && all.instrument_type === "EQUITY" ? (
            <p className="text-xs text-slate-600">
              {all.side} {all.entrust_type === "AMOUNT" ? `${all.total_cash_amount || "…"} ${currency} of` : `${all.quantity || "…"}`}{" "}
              {instrument.symbol} · {all.order_type}
              {all.combo !== "NORMAL" ? ` · ${COMBO_LABELS[all.combo]} (the estimate is the first order's)` : ""}
            </p>
          ) : null}
          {preview && !stale ? (
            <>
              <PreviewSummary preview={preview.data} />
              <PreTradeChecks checks={preview.data.checks} overrides={overrides} onOverrides={setOverrides} />
            </>
          ) : (
            <p className="text-xs text-slate-500">
              {stale
                ? "The ticket changed: preview it again."
                : "Preview shows the commission, fees and buying-power effect before placing."}
            </p>
          )}
          <div className="flex gap-2">
            <Button type="submit" variant={preview && !stale ? "secondary" : "primary"} disabled={busy || place.busy}>
              {busy ? "Previewing…" : "Preview"}
            </Button>
            <Button onClick={doPlace} disabled={!preview || !!stale || blocked || busy || place.busy}>
              {place.busy ? "Placing…" : "Place order"}
            </Button>
          </div>
        </>
      )}
    </>
  );
  return (
    <ReviewForm
      form={form}
      onSubmit={onSubmit}
      label="Order ticket"
      width="max-w-7xl lg:grid-cols-[minmax(0,1fr)_22rem]"
      panelLabel="Preview and place"
      panelTitle="Preview"
      panel={panel}
    >
      <FormBanner banner={banner} />
      <FormSection title="Account">
        <TicketAccountPicker
          account={all.account_id ? account.data : undefined}
          onAccount={(id) => setValue("account_id", id ?? "", { shouldValidate: false })}
        />
        {account.isError ? <p className="text-xs text-red-700">{(account.error as Error).message}</p> : null}
      </FormSection>
      <FormSection title="Instrument">
        <div className="grid grid-cols-[auto_auto_minmax(0,1fr)] gap-3">
          <Choice name="market" label="Market" options={TICKET_MARKETS.map((m) => [m, TICKET_MARKET_LABELS[m]])} />
          <Choice
            name="instrument_type"
            label="Instrument"
            options={
              all.market === "US"
                ? [
                    ["EQUITY", "Stock"],
                    ["OPTION", "Option"],
                  ]
                : [["EQUITY", "Stock"]]
            }
          />
          <div>
            {all.instrument_type === "OPTION" ? null : (
              <TicketInstrumentLookup
                key={`${all.market}-${round}`}
                onInstrument={setInstrument}
                initialSymbol={round === 0 && all.market === initialInstrument?.market ? initialInstrument.symbol : undefined}
              />
            )}
          </div>
        </div>
        {all.instrument_type === "OPTION" ? <TicketOptionLegs key={round} /> : null}
      </FormSection>
      <FormSection title="Order">
        <TicketOrderFields currency={currency} />
      </FormSection>
    </ReviewForm>
  );
}

/** A segmented choice bound to a form field (radio inputs, so the keyboard and labels work). */
function Choice({ name, label, options }: { name: "market" | "instrument_type"; label: string; options: [string, string][] }) {
  const { register } = useFormContext<TicketValues>();
  return (
    <div role="radiogroup" aria-label={label} className="flex flex-col gap-1">
      <span className="text-xs font-medium text-slate-700">{label}</span>
      <div className="flex h-8 overflow-hidden rounded border border-slate-300 text-sm">
        {options.map(([value, text]) => (
          <label
            key={value}
            className="flex flex-1 cursor-pointer items-center justify-center px-3 whitespace-nowrap has-[:checked]:bg-blue-700 has-[:checked]:text-white"
          >
            <input type="radio" value={value} {...register(name)} className="sr-only" />
            {text}
          </label>
        ))}
      </div>
    </div>
  );
}
