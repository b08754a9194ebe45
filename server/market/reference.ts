import "server-only";
import type { CandleView, ChartTimespan, MarketCode } from "@/lib/market";
import { SharedCache } from "@/server/screeners/cache";
import type { MarketReads } from "./reads";

/**
 * What changes slowly, kept for its natural lifetime in this process, one call whoever asks: a chart's bars for a
 * fraction of their span (a minute bar is re-read after 10 s, a day bar after 5 min; the live quote moves the last
 * bar in between). The instrument's name, exchange and currency are the instrument master's record.
 */
const BAR_TTL_MS: Record<ChartTimespan, number> = { M1: 10_000, M5: 30_000, M15: 60_000, M60: 120_000, D: 300_000, W: 300_000 };

const bars = Object.fromEntries(
  Object.entries(BAR_TTL_MS).map(([span, ttl]) => [span, new SharedCache<CandleView[]>(ttl, Date.now, 500)]),
) as Record<ChartTimespan, SharedCache<CandleView[]>>;

export function cachedBars(reads: MarketReads, market: MarketCode, symbol: string, timespan: ChartTimespan): Promise<CandleView[]> {
  return bars[timespan].get(`${market}:${symbol}`, () => reads.bars(market, symbol, timespan));
}
