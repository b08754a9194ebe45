"use client";
import type { ReactNode } from "react";
import { useMarketTopic, type MarketEventView } from "@/components/live/market-topics";
import { formatQuantity } from "@/lib/money";
import type { LiveMarketKind, MarketCode } from "@/lib/market";
import { marketClock, MARKET_CITIES } from "@/lib/market-sessions";
import { formatPrice } from "./format";

/**
 * The instrument page's live panels: depth ladder, tick tape, footprint and, during US auctions, the NOII. Each
 * reads its topic from the tab's live channel (one shared poller per symbol on the server), and says when it is
 * waiting for its first update, when the upstream failed, and when there is nothing to show.
 */
const th = "px-2 py-1 text-[11px] font-semibold text-slate-500 whitespace-nowrap";
const td = "px-2 py-0.5 tabular-nums whitespace-nowrap";

function LivePanel<K extends LiveMarketKind>({
  title,
  event,
  empty,
  children,
  testId,
}: {
  title: string;
  event: MarketEventView<K> | undefined;
  empty: boolean;
  children: ReactNode;
  testId: string;
}) {
  return (
    <section aria-label={title} className="rounded border border-slate-200 bg-white" data-testid={testId}>
      <header className="flex items-center justify-between border-b border-slate-200 px-3 py-1.5">
        <h2 className="text-sm font-semibold text-slate-800">{title}</h2>
        {event?.error && event.data !== undefined ? <span className="text-xs text-amber-800">not updating</span> : null}
      </header>
      {event?.data !== undefined && !empty ? (
        children
      ) : (
        <p
          className={`px-3 py-4 text-center text-xs ${event?.error ? "text-amber-800" : "text-slate-500"}`}
          role={event?.error ? "status" : undefined}
        >
          {event?.error && event.data === undefined
            ? `Not available: ${event.error}`
            : event
              ? "Nothing to show yet."
              : "Waiting for the first update…"}
        </p>
      )}
    </section>
  );
}

export function DepthLadder({ market, symbol }: { market: MarketCode; symbol: string }) {
  const e = useMarketTopic("depth", market, symbol);
  const asks = [...(e?.data?.asks ?? [])].slice(0, 10).reverse();
  const bids = (e?.data?.bids ?? []).slice(0, 10);
  const max = Math.max(1, ...[...asks, ...bids].map((l) => Number(l.size ?? 0)));
  const row = (side: "ask" | "bid", l: { price: string; size?: string }, i: number) => (
    <tr key={`${side}${i}`}>
      <td className={`${td} text-right ${side === "ask" ? "text-red-700" : "text-emerald-700"}`}>{formatPrice(l.price)}</td>
      <td className={`${td} relative w-1/2 text-right`}>
        <span
          className={`absolute inset-y-0.5 right-0 ${side === "ask" ? "bg-red-100" : "bg-emerald-100"}`}
          style={{ width: `${(Number(l.size ?? 0) / max) * 100}%` }}
          aria-hidden
        />
        <span className="relative">{formatQuantity(l.size)}</span>
      </td>
    </tr>
  );
  return (
    <LivePanel title="Depth" event={e} empty={!asks.length && !bids.length} testId="depth-ladder">
      <table className="w-full text-xs">
        <thead>
          <tr>
            <th className={`${th} text-right`}>Price</th>
            <th className={`${th} text-right`}>Size</th>
          </tr>
        </thead>
        <tbody>
          {asks.map((l, i) => row("ask", l, i))}
          <tr aria-hidden>
            <td colSpan={2} className="border-y border-slate-200 bg-slate-50 py-0" />
          </tr>
          {bids.map((l, i) => row("bid", l, i))}
        </tbody>
      </table>
    </LivePanel>
  );
}

const SIDE_TONE: Record<string, string> = { BUY: "text-emerald-700", B: "text-emerald-700", SELL: "text-red-700", S: "text-red-700" };

export function TickTape({ market, symbol }: { market: MarketCode; symbol: string }) {
  const e = useMarketTopic("tick", market, symbol);
  const ticks = (e?.data ?? []).slice(0, 25);
  return (
    <LivePanel title="Time and sales" event={e} empty={!ticks.length} testId="tick-tape">
      <div className="max-h-80 overflow-y-auto">
        <table className="w-full text-xs">
          <thead className="sticky top-0 bg-white">
            <tr>
              <th className={`${th} text-left`}>Time ({MARKET_CITIES[market]})</th>
              <th className={`${th} text-right`}>Price</th>
              <th className={`${th} text-right`}>Size</th>
            </tr>
          </thead>
          <tbody>
            {ticks.map((t, i) => (
              <tr key={`${t.time}-${i}`} className="border-t border-slate-100">
                <td className={`${td} text-slate-600`}>{marketClock(market, t.time)}</td>
                <td className={`${td} text-right ${SIDE_TONE[t.side ?? ""] ?? ""}`}>{formatPrice(t.price)}</td>
                <td className={`${td} text-right`}>{formatQuantity(t.volume)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </LivePanel>
  );
}

export function FootprintPanel({ market, symbol }: { market: MarketCode; symbol: string }) {
  const e = useMarketTopic("footprint", market, symbol);
  const bar = e?.data?.[0];
  const levels = [...(bar?.levels ?? [])].sort((a, b) => Number(b.price) - Number(a.price)).slice(0, 12);
  return (
    <LivePanel
      title={bar ? `Footprint · minute of ${marketClock(market, bar.time).slice(0, 5)}` : "Footprint"}
      event={e}
      empty={!levels.length}
      testId="footprint"
    >
      <table className="w-full text-xs">
        <thead>
          <tr>
            <th className={`${th} text-right`}>Sell</th>
            <th className={`${th} text-right`}>Price</th>
            <th className={`${th} text-left`}>Buy</th>
          </tr>
        </thead>
        <tbody>
          {levels.map((l) => {
            const buy = Number(l.buy ?? 0);
            const sell = Number(l.sell ?? 0);
            return (
              <tr key={l.price} className="border-t border-slate-100">
                <td className={`${td} text-right ${sell > buy ? "font-semibold text-red-700" : "text-slate-700"}`}>
                  {formatQuantity(l.sell)}
                </td>
                <td className={`${td} text-right text-slate-900`}>{formatPrice(l.price)}</td>
                <td className={`${td} text-left ${buy > sell ? "font-semibold text-emerald-700" : "text-slate-700"}`}>
                  {formatQuantity(l.buy)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </LivePanel>
  );
}

/** The auction's imbalance, polled only while an auction publishes one (the page asks during those windows). */
export function NoiiPanel({ market, symbol }: { market: MarketCode; symbol: string }) {
  const e = useMarketTopic("noii", market, symbol);
  const n = e?.data;
  const rows: [string, ReactNode][] = n
    ? [
        ["Auction", n.type === "PRE_OPEN" ? "Opening" : n.type === "PRE_CLOSE" ? "Closing" : (n.type ?? "—")],
        ["Imbalance", `${formatQuantity(n.imbalance)} ${n.side ?? ""}`.trim()],
        ["Paired", formatQuantity(n.paired)],
        ["Reference", formatPrice(n.referencePrice)],
        ["Near indicative", formatPrice(n.nearPrice)],
        ["Far indicative", formatPrice(n.farPrice)],
      ]
    : [];
  return (
    <LivePanel title="Auction imbalance (NOII)" event={e} empty={!n} testId="noii">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 px-3 py-2 text-xs">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-slate-500">{k}</dt>
            <dd className="text-right font-medium tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
    </LivePanel>
  );
}
