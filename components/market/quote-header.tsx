"use client";
import { Badge, type Tone } from "@/components/ui/badge";
import { PnL } from "@/components/ui/money";
import { formatQuantity } from "@/lib/money";
import type { QuoteView } from "@/lib/market";
import { MARKET_CITIES, marketClock } from "@/lib/market-sessions";
import { formatChange, formatPrice, formatRatio } from "./format";

/** The quote across the top of the instrument page, updated in place by the live quote. */
const SESSION_TONES: Record<string, Tone> = {
  CORE: "green",
  PRE: "amber",
  AFTER: "amber",
  POST: "amber",
  NIGHT: "violet",
  CLOSED: "slate",
};
const SESSION_LABELS: Record<string, string> = {
  CORE: "Regular session",
  PRE: "Pre-market",
  AFTER: "Post-market",
  POST: "Post-market",
  NIGHT: "Overnight",
  CLOSED: "Closed",
};

function Stat({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-right font-medium tabular-nums text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function QuoteHeader({
  quote,
  name,
  exchange,
  currency,
  error,
  action,
}: {
  quote: QuoteView;
  name?: string;
  exchange?: string;
  currency?: string;
  error?: string;
  action?: React.ReactNode;
}) {
  const session = quote.session;
  return (
    <section aria-label="Quote" className="rounded border border-slate-200 bg-white px-4 py-3">
      <div className="flex flex-wrap items-end justify-between gap-x-8 gap-y-3">
        <div className="min-w-0">
          <div className="flex items-center gap-2">
            <h1 className="text-xl font-semibold text-slate-900">{quote.symbol}</h1>
            <Badge tone="slate">{quote.market}</Badge>
            {session ? (
              <span data-testid="quote-session">
                <Badge tone={SESSION_TONES[session] ?? "slate"}>{SESSION_LABELS[session] ?? session}</Badge>
              </span>
            ) : null}
          </div>
          <p className="truncate text-sm text-slate-600">
            {[name, exchange, currency ? `Prices in ${currency}` : undefined].filter(Boolean).join(" · ") || "—"}
          </p>
        </div>
        <div className="flex items-baseline gap-3">
          <span className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="quote-last">
            {formatPrice(quote.last)}
          </span>
          <span className="text-base font-medium tabular-nums" data-testid="quote-change">
            <PnL value={quote.change}>
              {formatChange(quote.change)} ({formatRatio(quote.changeRatio)})
            </PnL>
          </span>
        </div>
        {quote.extPrice ? (
          <div className="text-sm tabular-nums text-slate-700" data-testid="quote-ext">
            <span className="text-slate-500">
              {session === "PRE" ? "Pre-market" : session === "NIGHT" ? "Overnight" : "Extended hours"}{" "}
            </span>
            <span className="font-medium">{formatPrice(quote.extPrice)}</span>{" "}
            {quote.extChange ? (
              <PnL value={quote.extChange}>
                {formatChange(quote.extChange)} ({formatRatio(quote.extChangeRatio)})
              </PnL>
            ) : null}
          </div>
        ) : null}
        <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm">
          <Stat label="Bid" testId="quote-bid">
            {formatPrice(quote.bid)} <span className="text-xs font-normal text-slate-500">× {formatQuantity(quote.bidSize)}</span>
          </Stat>
          <Stat label="Ask" testId="quote-ask">
            {formatPrice(quote.ask)} <span className="text-xs font-normal text-slate-500">× {formatQuantity(quote.askSize)}</span>
          </Stat>
        </dl>
        <dl className="grid grid-cols-5 gap-x-5 text-sm">
          <Stat label="Open">{formatPrice(quote.open)}</Stat>
          <Stat label="High">{formatPrice(quote.high)}</Stat>
          <Stat label="Low">{formatPrice(quote.low)}</Stat>
          <Stat label="Prev close">{formatPrice(quote.preClose)}</Stat>
          <Stat label="Volume">{formatQuantity(quote.volume)}</Stat>
        </dl>
        {action ? <div className="self-center">{action}</div> : null}
      </div>
      <p className="mt-2 text-xs text-slate-500" aria-live="polite">
        {error ? (
          <span className="text-amber-800" role="status">
            Quote not updating: {error}
          </span>
        ) : quote.tradeTime ? (
          <>
            As of {marketClock(quote.market, quote.tradeTime)} {MARKET_CITIES[quote.market]} time
          </>
        ) : null}
      </p>
    </section>
  );
}
