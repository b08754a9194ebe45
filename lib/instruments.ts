/**
 * The instrument page's address, shared by every link to it (`SymbolLink`), the header search and the route
 * handlers. Markets are the wire's (US, HK, CN), written in capitals in the URL.
 */
export const INSTRUMENT_MARKETS = ["US", "HK", "CN"] as const;
export type InstrumentMarket = (typeof INSTRUMENT_MARKETS)[number];

/** The stock category of a market, as the upstream's instrument and fundamentals calls name it. */
export const STOCK_CATEGORY: Record<InstrumentMarket, "US_STOCK" | "HK_STOCK" | "CN_STOCK"> = {
  US: "US_STOCK",
  HK: "HK_STOCK",
  CN: "CN_STOCK",
};

/** The currency a market's prices and cash are in (CN: the offshore renminbi, CNH, as the Connect trades). */
export const MARKET_CURRENCY: Record<InstrumentMarket, "USD" | "HKD" | "CNH"> = { US: "USD", HK: "HKD", CN: "CNH" };

/** An OCC option symbol, compact ("AAPL260116C00150000") or padded ("AAPL  260116C00150000"): root, date, type, strike. */
const OCC = /^([A-Z.]{1,6})\s*(\d{6})([CP])(\d{8})$/;

/** An OCC option symbol's underlying, type and strike; undefined for anything else. */
export function occContract(symbol: string): { root: string; type: "CALL" | "PUT"; strike: number } | undefined {
  const m = OCC.exec(symbol.trim().toUpperCase());
  return m ? { root: m[1], type: m[3] === "C" ? "CALL" : "PUT", strike: Number(m[4]) / 1000 } : undefined;
}

/** The underlying's symbol of an OCC option symbol, or undefined for anything else. */
export function occRoot(symbol: string): string | undefined {
  return occContract(symbol)?.root;
}

export function isInstrumentMarket(v: string | null | undefined): v is InstrumentMarket {
  return !!v && (INSTRUMENT_MARKETS as readonly string[]).includes(v.toUpperCase());
}

/**
 * The page of a symbol. An option links to its underlying's page: the instrument page is about a stock (its
 * profile, statements, margin and locate), and the underlying is what staff look at to judge an option order.
 * Undefined when the market is not one the page serves.
 */
export function instrumentHref(market: string | null | undefined, symbol: string | null | undefined): string | undefined {
  if (!symbol || !isInstrumentMarket(market)) return undefined;
  const s = (occRoot(symbol) ?? symbol.trim()).toUpperCase();
  return `/instruments/${market.toUpperCase()}/${encodeURIComponent(s)}`;
}
