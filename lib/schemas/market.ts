import { z } from "zod";
import { INSTRUMENT_MARKETS } from "@/lib/instruments";
import { LIVE_MARKET_KINDS, type LiveMarketKind, type MarketCode } from "@/lib/market";

// The market's inputs, parsed on the server (routes, the live channel); lib/market.ts keeps the browser's plain types,
// so that a page showing a quote does not carry zod for it.

/** Symbols as the upstream spells them: letters, digits, dot, dash (`BRK.B`, `00700`). */
export const symbolIn = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9.\-]{0,23}$/, "not a symbol");
export const marketIn = z.enum(INSTRUMENT_MARKETS);

const topicIn = z
  .string()
  .transform((t) => t.split(":"))
  .pipe(z.tuple([z.enum(LIVE_MARKET_KINDS), marketIn, symbolIn]));

/** At most this many market topics on one live channel (one page's panels, a ticket). */
export const MAX_MARKET_TOPICS = 12;

/** The `market` query parameter of the live channel: comma-joined topics; unknown or malformed ones are dropped. */
export function parseMarketTopics(value: string | null): { kind: LiveMarketKind; market: MarketCode; symbol: string }[] {
  const out = new Map<string, { kind: LiveMarketKind; market: MarketCode; symbol: string }>();
  for (const raw of (value ?? "").split(",")) {
    const t = topicIn.safeParse(raw);
    if (t.success) out.set(t.data.join(":"), { kind: t.data[0], market: t.data[1], symbol: t.data[2] });
    if (out.size >= MAX_MARKET_TOPICS) break;
  }
  return [...out.values()];
}
