import "server-only";
import { z } from "zod";
import { isoTimestamp, opt } from "./common";

/**
 * Watchlists (Market Data API; Python `data/quotes/watchlist.py`, Java DataClient watchlist calls). Bodies are the
 * SDKs' (`{name, sort?}`, `{watchlist_id, name?, sort?}`, `{watchlist_id, instruments: [{symbol, category, sort?}]}`);
 * create answers `{watchlist_id}`, the other writes a success flag (Java reads a Boolean) that parses to
 * `{ success }` whatever its form.
 */
export const WATCHLIST_CATEGORIES = ["US_STOCK", "US_ETF", "HK_STOCK", "HK_ETF", "CN_STOCK"] as const;

const watchlistId = z.string().trim().min(1).max(64);
const name = z.string().trim().min(1).max(64);
const sort = z.number().int().min(0).max(1_000_000);
const ref = { symbol: z.string().trim().min(1).max(24), category: z.enum(WATCHLIST_CATEGORIES) };

/** The list takes no parameter (every call of a method takes its input first: the recording broker relies on it). */
export const listIn = z.object({});
export const createIn = z.object({ name, sort: sort.optional() });
export const updateIn = z
  .object({ watchlist_id: watchlistId, name: name.optional(), sort: sort.optional() })
  .refine((b) => b.name !== undefined || b.sort !== undefined, "name or sort is required");
export const watchlistIdIn = z.object({ watchlist_id: watchlistId });
const instruments = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ watchlist_id: watchlistId, instruments: z.array(z.object(shape)).min(1).max(1000) });
export const addIn = instruments({ ...ref, sort: sort.optional() });
export const removeIn = instruments(ref);
export const reorderIn = instruments({ ...ref, sort });

const sortOut = opt(z.union([z.number(), z.string()]).transform(Number));
export const watchlist = z.object({
  watchlist_id: z.union([z.string(), z.number()]).transform(String),
  name: z.string(),
  sort: sortOut,
  create_time: opt(isoTimestamp),
  update_time: opt(isoTimestamp),
});
export const created = z.object({ watchlist_id: z.union([z.string(), z.number()]).transform(String) });
/** `true`, `{success: true}`, `{}` or no body: done; only an explicit false says otherwise. */
export const ack = z.unknown().transform((v) => ({
  success: v !== false && !(typeof v === "object" && v !== null && (v as { success?: unknown }).success === false),
}));

export const watchlistInstrument = z.object({
  symbol: z.string(),
  instrument_id: opt(z.union([z.string(), z.number()]).transform(String)),
  name: opt(z.string()),
  exchange_code: opt(z.string()),
  category: opt(z.string()),
  sort: sortOut,
  added_time: opt(isoTimestamp),
});
export const watchlistInstruments = z.object({
  watchlist_id: z.union([z.string(), z.number()]).transform(String),
  instruments: z
    .array(watchlistInstrument)
    .nullish()
    .transform((v) => v ?? []),
});

export type CreateWatchlistInput = z.input<typeof createIn>;
export type UpdateWatchlistInput = z.input<typeof updateIn>;
export type AddWatchlistInstrumentsInput = z.input<typeof addIn>;
export type RemoveWatchlistInstrumentsInput = z.input<typeof removeIn>;
export type ReorderWatchlistInstrumentsInput = z.input<typeof reorderIn>;
