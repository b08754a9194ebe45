import "server-only";
import { MarketHub } from "./hub";
import { marketReads } from "./reads";

/**
 * The market data domain: reads through the desk's Broker client (`reads.ts`), the shared pollers that keep the
 * upstream budget whatever the number of viewers (`hub.ts`), and the slowly-changing data kept for its lifetime
 * (`reference.ts`). One hub a process.
 */
export { cachedBars, instrumentProfile } from "./reference";

const holder = globalThis as unknown as { __brokerdeskMarketHub?: MarketHub; __brokerdeskMarketReads?: ReturnType<typeof marketReads> };

export function marketData() {
  holder.__brokerdeskMarketReads ??= marketReads();
  return holder.__brokerdeskMarketReads;
}

export function marketHub(): MarketHub {
  holder.__brokerdeskMarketHub ??= new MarketHub({ reads: marketData() });
  return holder.__brokerdeskMarketHub;
}
