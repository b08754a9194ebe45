import "server-only";
import { z } from "zod";
import { decimalOut, opt } from "./common";

/**
 * Market Data screeners (Python `screener.*`, Java `DataClient.get*`). Requests are the SDK's query parameters; a
 * ranking arrives as `{data, has_more}` on the v2 paths and as a bare array on the v3 paths: both parse to
 * `{ rows, hasMore }`.
 */
export const CATEGORIES = ["US_STOCK", "HK_STOCK", "CN_STOCK"] as const;
const direction = z.enum(["ASC", "DESC"]).optional();
const paging = { page_index: z.number().int().min(1).optional(), page_size: z.number().int().min(1).max(200).optional() };

export const gainersLosersIn = z.object({
  rank_type: z.enum(["PRE_MARKET", "AFTER_MARKET", "MIN_3", "MIN_5", "DAY_1", "DAY_5", "MONTH_1", "MONTH_3", "WEEK_52"]),
  category: z.enum(CATEGORIES),
  sort_by: z.string().min(1).default("CHANGE_RATIO"),
  direction,
  ...paging,
});
export const topActiveIn = z.object({
  category: z.enum(CATEGORIES),
  rank_type: z.enum(["VOLUME", "RELATIVE_VOLUME_10D", "TURNOVER", "TURNOVER_RATE", "AMPLITUDE"]).optional(),
  sort_by: z.string().min(1).optional(),
  direction,
  ...paging,
});
export const highDividendIn = z.object({ category: z.enum(CATEGORIES), sort_by: z.string().min(1).optional(), direction, ...paging });
export const week52In = z.object({
  category: z.enum(CATEGORIES),
  rank_type: z.enum(["NEW_HIGH", "NEAR_HIGH", "NEW_LOW", "NEAR_LOW"]).optional(),
  sort_by: z.string().min(1).optional(),
  direction,
  ...paging,
});
export const marketSectorsIn = z.object({
  category: z.enum(CATEGORIES),
  agg_type: z.enum(["MARKET_VALUE", "VOLUME"]).optional(),
  period: z.enum(["D1", "D5", "M01", "M03"]).optional(),
  direction,
  ...paging,
});
export const marketSectorDetailIn = z.object({
  sector_id: z.string().min(1),
  category: z.enum(CATEGORIES),
  period: z.enum(["D1", "D5", "M01", "M03"]).optional(),
  sort_by: z.string().min(1).optional(),
  direction,
  ...paging,
});

const dec = opt(decimalOut);
export const screenerStock = z.object({
  instrument_id: opt(z.string()),
  symbol: z.string(),
  name: opt(z.string()),
  exchange_code: opt(z.string()),
  currency_code: opt(z.string()),
  pre_close: dec,
  open: dec,
  high: dec,
  low: dec,
  price: dec,
  change: dec,
  change_ratio: dec,
  volume: dec,
  turnover: dec,
  turnover_rate: dec,
  market_value: dec,
  amplitude: dec,
  pe_ttm: dec,
  relative_volume_10d: dec,
  dividend: dec,
  yield: dec,
  high_52w: dec,
  low_52w: dec,
  change_ratio_52w: dec,
});
export type ScreenerStock = z.output<typeof screenerStock>;

export const ranking = z.union([
  z.array(screenerStock).transform((rows) => ({ rows, hasMore: false })),
  z
    .object({ data: z.array(screenerStock).nullish(), has_more: opt(z.boolean()) })
    .transform((w) => ({ rows: w.data ?? [], hasMore: !!w.has_more })),
]);

export const marketSector = z.object({
  sector_id: z.string(),
  sector_name: z.string(),
  change_ratio: dec,
  market_value: dec,
  volume: dec,
  rise_count: opt(z.number()),
  fall_count: opt(z.number()),
  flat_count: opt(z.number()),
  stock_count: opt(z.number()),
  leading_symbol: opt(z.string()),
  leading_change_ratio: dec,
});
export const marketSectors = z.union([
  z.array(marketSector),
  z.object({ data: z.array(marketSector).nullish() }).transform((w) => w.data ?? []),
]);
export const marketSectorDetail = marketSector.extend({
  has_more: opt(z.boolean()),
  data: z
    .array(screenerStock)
    .nullish()
    .transform((d) => d ?? []),
});
