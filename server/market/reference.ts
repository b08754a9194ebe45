import "server-only";
import type { CandleView, ChartTimespan, InstrumentProfile, MarketCode } from "@/lib/market";
import { broker } from "@/server/broker";
import { SharedCache } from "@/server/screeners/cache";
import type { MarketReads } from "./reads";

/**
 * What changes slowly, kept for its natural lifetime in this process, one call whoever asks: an instrument's
 * profile (name, exchange, currency, lot size) for an hour, a chart's bars for a fraction of their span (a minute
 * bar is re-read after 10 s, a day bar after 5 min; the live quote moves the last bar in between).
 */
const BAR_TTL_MS: Record<ChartTimespan, number> = { M1: 10_000, M5: 30_000, M15: 60_000, M60: 120_000, D: 300_000, W: 300_000 };
const PROFILE_TTL_MS = 3_600_000;

const bars = Object.fromEntries(
  Object.entries(BAR_TTL_MS).map(([span, ttl]) => [span, new SharedCache<CandleView[]>(ttl, Date.now, 500)]),
) as Record<ChartTimespan, SharedCache<CandleView[]>>;
const profiles = new SharedCache<InstrumentProfile | null>(PROFILE_TTL_MS, Date.now, 500);

export function cachedBars(reads: MarketReads, market: MarketCode, symbol: string, timespan: ChartTimespan): Promise<CandleView[]> {
  return bars[timespan].get(`${market}:${symbol}`, () => reads.bars(market, symbol, timespan));
}

/** The instrument's profile, or null when the upstream lists none (the quote alone still shows). */
export function instrumentProfile(market: MarketCode, symbol: string): Promise<InstrumentProfile | null> {
  return profiles.get(`${market}:${symbol}`, async () => {
    const page = await broker().listStockInstruments({ symbols: [symbol], market, page_size: 1 });
    const i = page.items.find((x) => x.symbol === symbol);
    return i ? { name: i.name, exchange: i.exchange_code, currency: i.currency, lotSize: i.lot_size } : null;
  });
}
