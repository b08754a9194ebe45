import "server-only";
import { z } from "zod";
import { decimalOut, isoTimestamp, opt } from "./common";

/**
 * Market data (facts §4.3; the official SDK's `webull/data` client): snapshot, bars, depth quotes, ticks,
 * footprint and the NOII auction snapshot. Requests are strict, responses tolerant: the upstream adds fields, and a
 * missing number is shown as absent rather than failing the page.
 */
export const STOCK_CATEGORIES = ["US_STOCK", "HK_STOCK", "CN_STOCK"] as const;
export const TIMESPANS = ["S5", "M1", "M5", "M15", "M30", "M60", "M120", "M240", "D", "W", "M", "Y"] as const;

const category = z.enum(STOCK_CATEGORIES);
const flag = z.enum(["true", "false"]);

export const snapshotIn = z.object({
  symbols: z.string().min(1),
  category,
  extend_hour_required: flag.optional(),
  overnight_required: flag.optional(),
});
export const snapshot = z.object({
  symbol: z.string(),
  market: opt(z.string()),
  instrument_id: opt(z.string()),
  price: opt(decimalOut),
  open: opt(decimalOut),
  high: opt(decimalOut),
  low: opt(decimalOut),
  pre_close: opt(decimalOut),
  volume: opt(decimalOut),
  change: opt(decimalOut),
  change_ratio: opt(decimalOut),
  bid: opt(decimalOut),
  ask: opt(decimalOut),
  bid_size: opt(decimalOut),
  ask_size: opt(decimalOut),
  trade_time: opt(isoTimestamp),
  session: opt(z.string()),
  trading_session: opt(z.string()),
  // Extended hours (pre/post-market) and overnight, when the upstream sends them.
  extend_hour_last_price: opt(decimalOut),
  extend_hour_change: opt(decimalOut),
  extend_hour_change_ratio: opt(decimalOut),
  ovn_price: opt(decimalOut),
});

export const barsIn = z.object({
  symbol: z.string().min(1),
  category,
  timespan: z.enum(TIMESPANS),
  count: z.number().int().min(1).max(1200).optional(),
  real_time_required: flag.optional(),
  trading_sessions: z.string().optional(),
});
export const bar = z.object({
  time: isoTimestamp,
  open: decimalOut,
  high: decimalOut,
  low: decimalOut,
  close: decimalOut,
  volume: opt(decimalOut),
});

export const quotesIn = z.object({
  symbol: z.string().min(1),
  category,
  depth: z.number().int().min(1).max(50).optional(),
  overnight_required: flag.optional(),
});
const level = z.object({ price: decimalOut, size: opt(decimalOut), orders: opt(decimalOut) });
export const quotes = z.object({
  symbol: opt(z.string()),
  asks: opt(z.array(level)),
  bids: opt(z.array(level)),
  quote_time: opt(isoTimestamp),
});

export const tickIn = z.object({
  symbol: z.string().min(1),
  category,
  count: z.number().int().min(1).max(1000).optional(),
  trading_sessions: z.string().optional(),
});
const tickRow = z.object({
  time: isoTimestamp,
  price: decimalOut,
  volume: opt(decimalOut),
  side: opt(z.string()),
});
/** `{symbol, result: [ticks]}` (the SDK's shape), or the ticks themselves. */
export const ticks = z.union([
  z.array(tickRow),
  z.object({ result: z.array(tickRow).nullish() }).transform((w) => w.result ?? []),
  z.object({ data: z.object({ result: z.array(tickRow).nullish() }) }).transform((w) => w.data.result ?? []),
]);

export const footprintIn = z.object({
  symbols: z.string().min(1),
  category,
  timespan: z.enum(TIMESPANS).optional(),
  count: z.number().int().min(1).max(1200).optional(),
});
/** Volume by price: `{"228.50": 169}`. */
const detail = opt(z.record(z.string(), z.union([z.string(), z.number()]).transform(String)));
const footprintBar = z.object({
  time: isoTimestamp,
  trading_session: opt(z.string()),
  total: opt(decimalOut),
  delta: opt(decimalOut),
  buy_detail: detail,
  sell_detail: detail,
});
/** Per symbol: `{symbol, result: [bars]}`. */
export const footprint = z.object({ symbol: opt(z.string()), result: opt(z.array(footprintBar)) });

export const noiiIn = z.object({
  symbol: z.string().min(1),
  category: z.literal("US_STOCK"),
  imbalance_action_type: z.enum(["PRE_OPEN", "PRE_CLOSE"]).optional(),
});
export const noii = z.object({
  symbol: opt(z.string()),
  instrument_id: opt(z.string()),
  auction_time: opt(isoTimestamp),
  imbalance_action_type: opt(z.string()),
  paired_shares: opt(decimalOut),
  imbalance_shares: opt(decimalOut),
  imbalance_side: opt(z.string()),
  reference_price: opt(decimalOut),
  near_indicative_price: opt(decimalOut),
  far_indicative_price: opt(decimalOut),
  time: opt(isoTimestamp),
  in_auction_window: opt(z.boolean()),
});

export type Snapshot = z.output<typeof snapshot>;
