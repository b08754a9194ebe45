"use client";
import dynamic from "next/dynamic";
import type { CandleView, ChartTimespan, QuoteView } from "@/lib/market";
import type { InstrumentSummary } from "@/lib/schemas/instrument-tabs";
import { inAuctionWindow } from "@/lib/market-sessions";
import { DepthLadder, FootprintPanel, NoiiPanel, TickTape } from "./market-panels";
import { QuoteHeader } from "./quote-header";
import { useLiveQuote } from "./use-live-quote";

// The chart library is this page's alone: loaded in its own chunk, after the quote is on screen.
const PriceChart = dynamic(() => import("./price-chart").then((m) => m.PriceChart), {
  ssr: false,
  loading: () => <div className="flex h-full min-h-[400px] items-center justify-center text-sm text-slate-500">Loading chart…</div>,
});

/** The instrument page: the live quote, the chart, and the depth, tape, footprint and auction panels beside it. */
export function InstrumentView({
  quote: initial,
  profile,
  bars,
  timespan,
  action,
}: {
  quote: QuoteView;
  profile: InstrumentSummary | null;
  bars?: CandleView[];
  timespan: ChartTimespan;
  /** What staff may do with the symbol (the order ticket on it), at the header's end. */
  action?: React.ReactNode;
}) {
  const { market, symbol } = initial;
  const { quote = initial, error } = useLiveQuote(market, symbol, initial);
  // The market's clock is the quote's time (the sandbox's may be pinned): the NOII panel shows while an auction runs.
  const auction = !!quote.tradeTime && inAuctionWindow(market, new Date(quote.tradeTime));
  return (
    <div className="flex flex-col gap-3">
      <QuoteHeader
        quote={quote}
        name={profile?.name}
        exchange={profile?.exchange}
        currency={profile?.currency}
        error={error}
        action={action}
      />
      <div className="grid grid-cols-1 gap-3 xl:grid-cols-[minmax(0,1fr)_19rem]">
        <section aria-label="Chart" className="h-[460px] rounded border border-slate-200 bg-white 2xl:h-[560px]">
          <PriceChart market={market} symbol={symbol} initialBars={bars} initialTimespan={timespan} quote={quote} />
        </section>
        <DepthLadder market={market} symbol={symbol} />
      </div>
      <div className={`grid grid-cols-1 gap-3 md:grid-cols-2 ${auction ? "xl:grid-cols-3" : ""}`}>
        <TickTape market={market} symbol={symbol} />
        <FootprintPanel market={market} symbol={symbol} />
        {auction ? <NoiiPanel market={market} symbol={symbol} /> : null}
      </div>
    </div>
  );
}
