import "server-only";
import { NotFoundError } from "@/lib/errors";
import type { CandleView, ChartTimespan, DepthView, FootprintView, MarketCode, NoiiView, QuoteView, TickView } from "@/lib/market";
import { STOCK_CATEGORY } from "@/lib/instruments";
import { broker, isBrokerError, type BrokerClient, type RequestOptions } from "@/server/broker";
import type { Snapshot } from "@/server/broker/schemas/market";

/**
 * One upstream read each, mapped into the plain types the pages receive. Every call goes through the desk's Broker
 * client (signing, rate budget, zod parsing); nothing here caches or polls: `hub.ts` shares these reads between
 * viewers and `reference.ts` keeps what changes slowly.
 */

export interface MarketReads {
  snapshot(market: MarketCode, symbol: string, ro?: RequestOptions): Promise<QuoteView>;
  bars(market: MarketCode, symbol: string, timespan: ChartTimespan, ro?: RequestOptions): Promise<CandleView[]>;
  depth(market: MarketCode, symbol: string, ro?: RequestOptions): Promise<DepthView>;
  tick(market: MarketCode, symbol: string, ro?: RequestOptions): Promise<TickView[]>;
  footprint(market: MarketCode, symbol: string, ro?: RequestOptions): Promise<FootprintView[]>;
  noii(market: MarketCode, symbol: string, ro?: RequestOptions): Promise<NoiiView | null>;
}

/** The SDK's session codes as the desk names sessions. */
const SESSIONS: Record<string, string> = { PRE: "PRE", RTH: "CORE", ATH: "AFTER", OVN: "NIGHT", CLOSED: "CLOSED" };

export const BAR_COUNT = 300;
const TICK_COUNT = 40;
const FOOTPRINT_COUNT = 6;

/** An unknown symbol is a not-found, whatever code the upstream chose for it. */
function notFoundOn(symbol: string) {
  return (e: unknown): never => {
    if (isBrokerError(e) && ["INSTRUMENT_NOT_FOUND", "INVALID_SYMBOL"].includes(e.errorCode)) {
      throw new NotFoundError(`No instrument ${symbol} in this market.`);
    }
    throw e;
  };
}

export function quoteView(market: MarketCode, s: Snapshot): QuoteView {
  return {
    symbol: s.symbol,
    market,
    last: s.price,
    change: s.change,
    changeRatio: s.change_ratio,
    open: s.open,
    high: s.high,
    low: s.low,
    preClose: s.pre_close,
    volume: s.volume,
    bid: s.bid,
    ask: s.ask,
    bidSize: s.bid_size,
    askSize: s.ask_size,
    session: s.session ?? SESSIONS[s.trading_session ?? ""] ?? s.trading_session,
    tradeTime: s.trade_time,
    extPrice: s.extend_hour_last_price ?? s.ovn_price,
    extChange: s.extend_hour_change,
    extChangeRatio: s.extend_hour_change_ratio,
  };
}

export function marketReads(client: () => BrokerClient = broker): MarketReads {
  return {
    async snapshot(market, symbol, ro) {
      const rows = await client()
        .getStockSnapshot({ symbols: symbol, category: STOCK_CATEGORY[market], extend_hour_required: "true" }, ro)
        .catch(notFoundOn(symbol));
      const row = rows.find((r) => r.symbol === symbol);
      if (!row) throw new NotFoundError(`No instrument ${symbol} in this market.`);
      return quoteView(market, row);
    },
    async bars(market, symbol, timespan, ro) {
      const rows = await client()
        .listStockBars({ symbol, category: STOCK_CATEGORY[market], timespan, count: BAR_COUNT }, ro)
        .catch(notFoundOn(symbol));
      // The upstream answers newest first; a chart wants time ascending and each time once.
      const seen = new Set<number>();
      return rows
        .map((b) => ({ ...b, time: Math.floor(Date.parse(b.time) / 1000) }))
        .filter((b) => Number.isFinite(b.time) && !seen.has(b.time) && seen.add(b.time))
        .sort((a, b) => a.time - b.time);
    },
    async depth(market, symbol, ro) {
      const q = await client().getStockQuotes({ symbol, category: STOCK_CATEGORY[market], depth: 10 }, ro).catch(notFoundOn(symbol));
      return { bids: q.bids ?? [], asks: q.asks ?? [] };
    },
    async tick(market, symbol, ro) {
      const rows = await client()
        .listStockTicks({ symbol, category: STOCK_CATEGORY[market], count: TICK_COUNT }, ro)
        .catch(notFoundOn(symbol));
      return rows.sort((a, b) => b.time.localeCompare(a.time));
    },
    async footprint(market, symbol, ro) {
      const rows = await client()
        .listStockFootprints({ symbols: symbol, category: STOCK_CATEGORY[market], timespan: "M1", count: FOOTPRINT_COUNT }, ro)
        .catch(notFoundOn(symbol));
      const bars = rows.find((r) => !r.symbol || r.symbol === symbol)?.result ?? [];
      return bars
        .map((b) => {
          const prices = new Set([...Object.keys(b.buy_detail ?? {}), ...Object.keys(b.sell_detail ?? {})]);
          return {
            time: b.time,
            levels: [...prices].map((price) => ({ price, buy: b.buy_detail?.[price], sell: b.sell_detail?.[price] })),
          };
        })
        .sort((a, b) => b.time.localeCompare(a.time));
    },
    async noii(market, symbol, ro) {
      if (market !== "US") return null;
      // The closing cross first; outside its window, the opening one's when that one is running.
      const read = (type: "PRE_OPEN" | "PRE_CLOSE") =>
        client().getStockNoiiSnapshot({ symbol, category: "US_STOCK", imbalance_action_type: type }, ro).catch(notFoundOn(symbol));
      let n = await read("PRE_CLOSE");
      if (n.in_auction_window === false) {
        const open = await read("PRE_OPEN");
        if (open.in_auction_window) n = open;
      }
      return {
        side: n.imbalance_side,
        type: n.imbalance_action_type,
        paired: n.paired_shares,
        imbalance: n.imbalance_shares,
        referencePrice: n.reference_price,
        nearPrice: n.near_indicative_price,
        farPrice: n.far_indicative_price,
        time: n.time,
      };
    },
  };
}
