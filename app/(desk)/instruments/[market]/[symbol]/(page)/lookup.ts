import "server-only";
import { cache } from "react";
import { isNotFound } from "@/lib/errors";
import type { QuoteView } from "@/lib/market";
import { marketIn, symbolIn } from "@/lib/schemas/market";
import { marketHub } from "@/server/market";

export interface InstrumentParams {
  market: string;
  symbol: string;
}

/**
 * The instrument's quote, read once a request by the layout (an unknown symbol is a real 404) and the page: through
 * the shared poller, so a page opened while others view the symbol costs no upstream call.
 */
export const findInstrument = cache(async (rawMarket: string, rawSymbol: string): Promise<QuoteView | undefined> => {
  const market = marketIn.safeParse(rawMarket.toUpperCase());
  const symbol = symbolIn.safeParse(decodeURIComponent(rawSymbol));
  if (!market.success || !symbol.success) return undefined;
  return marketHub()
    .read("snapshot", market.data, symbol.data)
    .catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
});
