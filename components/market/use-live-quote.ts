"use client";
import { useMarketTopic } from "@/components/live/market-topics";
import type { MarketCode, QuoteView } from "@/lib/market";

/**
 * A symbol's quote from the tab's live channel (the server's shared poller), starting from what the page had:
 * `error` says when the latest poll failed (the last good quote stays on screen).
 */
export function useLiveQuote(market: MarketCode, symbol: string, initial?: QuoteView, enabled = true) {
  const live = useMarketTopic("snapshot", market, symbol, enabled);
  return { quote: live?.data ?? initial, error: live?.error, live: !!live?.data };
}
