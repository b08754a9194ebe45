"use client";
import { formatPrice } from "@/components/market/format";
import { useLiveQuote } from "@/components/market/use-live-quote";
import { formatQuantity } from "@/lib/money";
import type { MarketCode } from "@/lib/market";

/** The ticket's symbol quoted live (last, bid, ask), from the same shared poller as the instrument page. */
export function TicketQuote({ market, symbol }: { market: MarketCode; symbol: string }) {
  const { quote, error } = useLiveQuote(market, symbol);
  return (
    <dl className="mt-1 grid grid-cols-3 gap-x-3 tabular-nums" data-testid="ticket-quote" aria-label={`${symbol} quote`}>
      {(
        [
          ["Last", formatPrice(quote?.last), undefined],
          ["Bid", formatPrice(quote?.bid), quote?.bidSize],
          ["Ask", formatPrice(quote?.ask), quote?.askSize],
        ] as const
      ).map(([label, price, size]) => (
        <div key={label} className="flex items-baseline justify-between gap-1">
          <dt className="text-slate-500">{label}</dt>
          <dd className="font-medium text-slate-900" data-testid={`ticket-quote-${label.toLowerCase()}`}>
            {quote ? price : "…"}
            {size ? <span className="font-normal text-slate-500"> × {formatQuantity(size)}</span> : null}
          </dd>
        </div>
      ))}
      {error ? <p className="col-span-3 text-amber-800">Quote not updating: {error}</p> : null}
    </dl>
  );
}
