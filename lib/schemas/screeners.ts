import { z } from "zod";

/**
 * The desk's screeners page (`/markets`): which screener, its market and the variant asked for. One schema for the
 * route's parameters and the page's controls; the values are the Market Data API's own enums.
 */
export const SCREENERS = ["gainers", "top-active", "sectors", "sector-detail", "high-dividend", "week52"] as const;
export type ScreenerId = (typeof SCREENERS)[number];

export const SCREENER_CATEGORIES = ["US_STOCK", "HK_STOCK", "CN_STOCK"] as const;
export const CATEGORY_MARKET = { US_STOCK: "US", HK_STOCK: "HK", CN_STOCK: "CN" } as const;

export const GAINER_RANKS = ["DAY_1", "DAY_5", "MONTH_1", "MONTH_3", "WEEK_52"] as const;
export const ACTIVE_RANKS = ["VOLUME", "RELATIVE_VOLUME_10D", "TURNOVER", "TURNOVER_RATE", "AMPLITUDE"] as const;
export const WEEK52_RANKS = ["NEAR_HIGH", "NEW_HIGH", "NEAR_LOW", "NEW_LOW"] as const;

export const screenerParams = z.object({
  screener: z.enum(SCREENERS),
  category: z.enum(SCREENER_CATEGORIES).default("US_STOCK"),
  /** gainers: DESC = gainers, ASC = losers */
  direction: z.enum(["ASC", "DESC"]).default("DESC"),
  /** the rank type of the screener (gainers: period; top active: metric; 52 weeks: high / low) */
  rank: z.string().max(32).optional(),
  sector_id: z
    .string()
    .regex(/^\d{1,10}$/)
    .optional(),
});
export type ScreenerParams = z.output<typeof screenerParams>;

/** Rows a screener table shows (the first page of the ranking). */
export const SCREENER_ROWS = 20;

/** A screener row as the page receives it (the upstream's decimal strings, absent when not given). */
export interface ScreenerRow {
  instrument_id?: string;
  symbol: string;
  name?: string;
  exchange_code?: string;
  currency_code?: string;
  pre_close?: string;
  open?: string;
  high?: string;
  low?: string;
  price?: string;
  change?: string;
  change_ratio?: string;
  volume?: string;
  turnover?: string;
  turnover_rate?: string;
  market_value?: string;
  amplitude?: string;
  pe_ttm?: string;
  relative_volume_10d?: string;
  dividend?: string;
  yield?: string;
  high_52w?: string;
  low_52w?: string;
  change_ratio_52w?: string;
}

export interface SectorRow {
  sector_id: string;
  sector_name: string;
  change_ratio?: string;
  market_value?: string;
  volume?: string;
  rise_count?: number;
  fall_count?: number;
  flat_count?: number;
  stock_count?: number;
  leading_symbol?: string;
  leading_change_ratio?: string;
}

/** What GET /api/markets/{screener} answers. */
export interface ScreenerAnswer {
  screener: ScreenerId;
  category: (typeof SCREENER_CATEGORIES)[number];
  /** the market of the instrument pages the rows link to */
  market: string;
  /** when the desk read it from the upstream (answers are shared for 30 s) */
  fetchedAt: string;
  rows: ScreenerRow[];
  sectors?: SectorRow[];
  sector?: SectorRow;
  hasMore: boolean;
}
