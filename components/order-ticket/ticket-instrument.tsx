"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { fetchJson } from "@/components/data-table/fetch-json";
import { fieldId, useFieldError } from "@/components/form/fields";
import { Badge } from "@/components/ui/badge";
import { Field, Input } from "@/components/ui/field";
import { formatMoney, formatQuantity } from "@/lib/money";
import type { TicketMarket, TicketValues } from "@/lib/schemas/order-ticket";
import type { TicketInstrument } from "@/lib/schemas/order-ticket-data";
import { ticketKeys, ticketUrls } from "./ticket-keys";
import { useDebounced } from "./use-debounced";
import { SymbolLink } from "@/components/instruments/symbol-link";
import { isInstrumentMarket } from "@/lib/instruments";
import { TicketQuote } from "./ticket-quote";

/**
 * Instrument search: the upstream looks stocks up by exact symbol, so the box looks the typed symbol up in the
 * chosen market once typing pauses (HK codes are padded: 700 → 00700). The found instrument fills the form's
 * symbol and lot size; its locate is shown beside a short sell.
 */
const SYMBOL_HINTS: Record<TicketMarket, string> = { US: "Ticker, e.g. AAPL", HK: "Stock code, e.g. 00700", CN: "Stock code, e.g. 600519" };

export function TicketInstrumentLookup({
  onInstrument,
  initialSymbol,
}: {
  onInstrument: (i: TicketInstrument | undefined) => void;
  /** The symbol the ticket was opened on (looked up at once). */
  initialSymbol?: string;
}) {
  const { control, setValue } = useFormContext<TicketValues>();
  const market = useWatch({ control, name: "market" });
  const side = useWatch({ control, name: "side" });
  const [typed, setTyped] = useState(initialSymbol ?? "");
  const settled = useDebounced(typed.trim().toUpperCase(), 350);
  const error = useFieldError("symbol");
  const found = useQuery({
    queryKey: ticketKeys.instrument(market, settled),
    queryFn: ({ signal }) => fetchJson<TicketInstrument>(ticketUrls.instrument(market, settled), signal),
    enabled: settled.length > 0,
    retry: false,
  });
  const instrument = settled && found.data ? found.data : undefined;
  useEffect(() => {
    setValue("symbol", instrument?.symbol ?? "");
    setValue("lot_size", instrument?.lot_size ?? "");
    onInstrument(instrument);
  }, [instrument, setValue, onInstrument]);
  const id = fieldId("symbol");

  return (
    <div className="flex flex-col gap-1">
      <Field id={id} label="Symbol" required error={error} hint={SYMBOL_HINTS[market]}>
        {(describedBy) => (
          <Input
            id={id}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            className="font-mono uppercase"
            aria-invalid={!!error}
            aria-describedby={describedBy}
          />
        )}
      </Field>
      {found.isFetching ? <p className="text-xs text-slate-500">Looking up…</p> : null}
      {settled && found.isError ? (
        <p className="text-xs text-red-700" role="alert">
          {(found.error as Error).message}
        </p>
      ) : null}
      {instrument ? (
        <div className="rounded border border-slate-200 bg-slate-50 px-2 py-1 text-xs" data-testid="ticket-instrument">
          <div className="flex items-baseline justify-between gap-2">
            <span className="truncate font-medium text-slate-800">
              <SymbolLink market={market} symbol={instrument.symbol} newTab /> {instrument.name}
            </span>
            {/* One price on the ticket: the live quote's where there is one; else the lookup's, said to be that. */}
            {isInstrumentMarket(market) ? (
              <span className="text-slate-500">{instrument.currency}</span>
            ) : (
              <span className="tabular-nums" data-testid="ticket-lookup-price">
                Last at lookup{" "}
                <b className="font-medium">
                  {formatMoney(instrument.last_price, instrument.currency, /^0\./.test(instrument.last_price) ? 3 : 2)}
                </b>
              </span>
            )}
          </div>
          {isInstrumentMarket(market) ? <TicketQuote market={market} symbol={instrument.symbol} /> : null}
          <div className="mt-0.5 flex flex-wrap gap-x-3 text-slate-600">
            <span>Lot {formatQuantity(instrument.lot_size)}</span>
            {instrument.fractionable ? <span>Fractional</span> : null}
            {instrument.overnight ? <span>Overnight</span> : null}
            {market === "US" ? <span>{instrument.shortable ? "Shortable" : "Not shortable"}</span> : null}
          </div>
          {side === "SHORT" ? <LocateLine instrument={instrument} /> : null}
        </div>
      ) : null}
    </div>
  );
}

function LocateLine({ instrument }: { instrument: TicketInstrument }) {
  const l = instrument.locate;
  if (!l) return <p className="mt-1 text-amber-800">No locate for {instrument.symbol}: it cannot be sold short.</p>;
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2" data-testid="ticket-locate">
      <span className="font-medium">Locate</span>
      <Badge tone={l.short_type === "ETB" ? "green" : l.short_type === "HTB" ? "amber" : "slate"}>
        {l.short_type === "ETB" ? "Easy to borrow" : l.short_type === "HTB" ? "Hard to borrow" : l.short_type || "unknown"}
      </Badge>
      {l.short_type === "HTB" ? <span className="tabular-nums">{formatQuantity(l.available_num)} shares available</span> : null}
      {l.rate ? <span className="tabular-nums">rate {l.rate}%</span> : null}
      {!l.shortable ? <span className="text-red-700">not shortable</span> : null}
    </p>
  );
}
