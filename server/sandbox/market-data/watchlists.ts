import "server-only";
import type { Hono } from "hono";
import { z } from "zod";
import type { HonoEnv, OpContext, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { marketDataLimit } from "../rate-limit";
import { route } from "../router";
import { parseWith, required } from "../validate";
import {
  addInstruments,
  createWatchlist,
  deleteWatchlist,
  listWatchlists,
  removeInstruments,
  sortInstruments,
  updateWatchlist,
  watchlistInstruments,
  type InstrumentRef,
} from "./watchlist-store";

/**
 * Watchlists of the Market Data API (Python `data/quotes/watchlist.py`, Java DataClient): each app key has its own,
 * stored in the sandbox schema (watchlist-store.ts). Bodies are the SDKs': `{name, sort?}`, `{watchlist_id, name?,
 * sort?}`, `{watchlist_id, instruments: [{symbol, category, sort?}]}`. Create answers `{watchlist_id}`; the other
 * writes answer `true` (Java reads a Boolean); lists are bare arrays on both path styles. Watchlists hold stocks and
 * ETFs of the instrument master; futures, options and event contracts are refused, as the SDKs document.
 */
const MARKET_OF: Record<string, string> = { US_STOCK: "US", US_ETF: "US", HK_STOCK: "HK", HK_ETF: "HK", CN_STOCK: "CN" };

const sort = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+$/)
      .transform(Number),
  ])
  .pipe(z.number().int().min(0).max(1_000_000));
const name = z.string().trim().min(1, "must not be empty").max(64, "at most 64 characters");
const watchlistId = z.string().trim().min(1, "is required").max(64);
const item = z.object({
  symbol: z.string().trim().min(1, "is required").max(24),
  category: z.string().min(1, "is required"),
  sort: sort.optional(),
});
const items = z.array(item).min(1, "at least one instrument").max(1000, "at most 1000 instruments per call");

const createIn = z.object({ name, sort: sort.optional() });
const updateIn = z
  .object({ watchlist_id: watchlistId, name: name.optional(), sort: sort.optional() })
  .refine((b) => b.name !== undefined || b.sort !== undefined, "name or sort is required.");
const deleteIn = z.object({ watchlist_id: watchlistId });
const instrumentsIn = z.object({ watchlist_id: watchlistId, instruments: items });

/** The request's instruments with their market; an unsupported category or the same instrument twice is refused. */
function refsOf(list: z.output<typeof items>): InstrumentRef[] {
  const seen = new Set<string>();
  return list.map((i, n) => {
    const market = MARKET_OF[i.category];
    if (!market)
      throw business(
        "UNSUPPORTED_CATEGORY",
        `instruments.${n}.category ${i.category} is not supported: watchlists hold ${Object.keys(MARKET_OF).join(", ")} (no futures, options or event contracts).`,
      );
    const symbol = i.symbol.toUpperCase();
    if (seen.has(`${market}:${symbol}`)) throw illegal(`instruments.${n}: ${symbol} is named twice.`);
    seen.add(`${market}:${symbol}`);
    return { market, symbol, category: i.category, sort: i.sort };
  });
}

export function watchlistRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  const wl = (name: Parameters<typeof route>[2], fn: (appKey: string, ctx: OpContext) => Promise<unknown>) =>
    route(app, sb, name, async (ctx) => {
      const appKey = ctx.c.get("principal").appKey;
      marketDataLimit(sb, appKey);
      return fn(appKey, ctx);
    });
  const now = () => sb.config.now();

  wl("listWatchlists", (appKey) => listWatchlists(sb.engine, appKey));
  wl("createWatchlist", (appKey, { body }) => createWatchlist(sb.engine, appKey, parseWith(createIn, body), now()));
  wl("updateWatchlist", (appKey, { body }) => updateWatchlist(sb.engine, appKey, parseWith(updateIn, body), now()));
  wl("deleteWatchlist", (appKey, { body }) => deleteWatchlist(sb.engine, appKey, parseWith(deleteIn, body).watchlist_id));
  wl("listWatchlistInstruments", (appKey, { query }) => watchlistInstruments(sb.engine, appKey, required(query, "watchlist_id")));

  wl("addWatchlistInstruments", (appKey, { body }) => {
    const b = parseWith(instrumentsIn, body);
    return addInstruments(sb.engine, appKey, b.watchlist_id, refsOf(b.instruments), now());
  });
  wl("removeWatchlistInstruments", (appKey, { body }) => {
    const b = parseWith(instrumentsIn, body);
    return removeInstruments(sb.engine, appKey, b.watchlist_id, refsOf(b.instruments), now());
  });
  wl("updateWatchlistInstruments", (appKey, { body }) => {
    const b = parseWith(instrumentsIn, body);
    const refs = refsOf(b.instruments);
    const unsorted = refs.findIndex((r) => r.sort === undefined);
    if (unsorted >= 0) throw illegal(`instruments.${unsorted}.sort is required.`);
    return sortInstruments(sb.engine, appKey, b.watchlist_id, refs as Required<InstrumentRef>[], now());
  });
}
