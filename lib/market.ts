import type { InstrumentMarket } from "@/lib/instruments";

/**
 * Market data as the desk's pages receive it (plain types, both sides): decimal strings as the upstream sent them,
 * and the live topics one symbol's viewers share (`kind:MARKET:SYMBOL`, e.g. `snapshot:US:AAPL`).
 */
export type MarketCode = InstrumentMarket;

export interface QuoteView {
  symbol: string;
  market: MarketCode;
  last?: string;
  change?: string;
  changeRatio?: string;
  open?: string;
  high?: string;
  low?: string;
  preClose?: string;
  volume?: string;
  bid?: string;
  ask?: string;
  bidSize?: string;
  askSize?: string;
  session?: string;
  tradeTime?: string;
  /** Pre/post-market (or overnight) price, when the upstream sends one. */
  extPrice?: string;
  extChange?: string;
  extChangeRatio?: string;
}

export interface CandleView {
  /** Bar start, epoch seconds (UTC). */
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume?: string;
}

export interface DepthView {
  bids: { price: string; size?: string }[];
  asks: { price: string; size?: string }[];
}
export interface TickView {
  time: string;
  price: string;
  volume?: string;
  side?: string;
}
export interface FootprintView {
  time: string;
  levels: { price: string; buy?: string; sell?: string }[];
}
export interface NoiiView {
  side?: string;
  type?: string;
  paired?: string;
  imbalance?: string;
  referencePrice?: string;
  nearPrice?: string;
  farPrice?: string;
  time?: string;
}

/** Timespans the chart offers (the upstream has more: facts §4.3). */
export const CHART_TIMESPANS = ["M1", "M5", "M15", "M60", "D", "W"] as const;
export type ChartTimespan = (typeof CHART_TIMESPANS)[number];

export const LIVE_MARKET_KINDS = ["snapshot", "depth", "tick", "footprint", "noii"] as const;
export type LiveMarketKind = (typeof LIVE_MARKET_KINDS)[number];

export interface LiveMarketData {
  snapshot: QuoteView;
  depth: DepthView;
  tick: TickView[];
  footprint: FootprintView[];
  noii: NoiiView | null;
}

export const marketTopic = (kind: LiveMarketKind, market: MarketCode, symbol: string) => `${kind}:${market}:${symbol}`;
