import type { InstrumentTab } from "@/lib/schemas/instrument-tabs";

/** The instrument page's reads: keys outside every live topic's root (reference data; nothing notifies it). */
const base = (market: string, symbol: string) => `/api/instruments/${encodeURIComponent(market)}/${encodeURIComponent(symbol)}`;

export const instrumentKeys = {
  summary: (market: string, symbol: string) => ["instrument", market, symbol] as const,
  tab: (market: string, symbol: string, tab: InstrumentTab) => ["instrument", market, symbol, tab] as const,
};

export const instrumentUrls = {
  summary: base,
  tab: (market: string, symbol: string, tab: InstrumentTab) => `${base(market, symbol)}/${tab}`,
};
