import "server-only";
import { z } from "zod";
import { FUNDAMENTAL_CATEGORIES } from "@/server/broker/schemas/fundamentals";
import { CATEGORIES, gainersLosersIn, topActiveIn } from "@/server/broker/schemas/screeners";
import { defineTool } from "../tool";

/**
 * The spec's market-data tools: NOII, the two rankings and the three reference reads the Market Data API serves,
 * with the official MCP tools' parameters. Each reads through the desk's Broker client (the caller's context
 * records the upstream request id in the audit entry), as the instrument page and the markets page do.
 */

const text = z.string().nullish();
const decimal = z.string().nullish().describe("a decimal as a string");

const noiiInput = z.object({
  symbol: z.string().trim().toUpperCase().min(1).max(24).describe("The stock's symbol, e.g. AAPL"),
  category: z.literal("US_STOCK").default("US_STOCK").describe("NOII is published for US stocks only"),
  imbalance_action_type: z
    .enum(["PRE_OPEN", "PRE_CLOSE"])
    .default("PRE_OPEN")
    .describe("PRE_OPEN: the opening auction's imbalance (9:28-9:30 ET); PRE_CLOSE: the closing auction's (15:50-16:00 ET)"),
});
const noiiRecord = z.object({
  symbol: text,
  instrument_id: text,
  imbalance_action_type: text,
  time: text.describe("ISO time of the indication"),
  auction_time: text,
  in_auction_window: z.boolean().nullish(),
  paired_shares: decimal,
  imbalance_shares: decimal,
  imbalance_side: text.describe("BUY, SELL or NONE"),
  reference_price: decimal,
  near_indicative_price: decimal,
  far_indicative_price: decimal,
});

const rankedStock = z.object({
  instrument_id: text,
  symbol: z.string(),
  name: text,
  exchange_code: text,
  currency_code: text,
  price: decimal,
  change: decimal,
  change_ratio: decimal.describe("0.0123 is +1.23 %"),
  volume: decimal,
  turnover: decimal,
  turnover_rate: decimal,
  market_value: decimal,
  amplitude: decimal,
  relative_volume_10d: decimal,
});
const ranking = z.object({ rows: z.array(rankedStock), has_more: z.boolean() });
const rankingOf = (r: { rows: z.input<typeof rankedStock>[]; hasMore: boolean }) => ({ rows: r.rows, has_more: r.hasMore });
const paging = {
  page_index: z.number().int().min(1).max(10_000).optional().describe("Page number, from 1"),
  page_size: z.number().int().min(1).max(200).optional().describe("Rows per page (default 20)"),
};

const symbolInput = z.object({
  symbol: z.string().trim().toUpperCase().min(1).max(24).describe("The instrument's symbol, e.g. AAPL"),
  category: z.enum(FUNDAMENTAL_CATEGORIES).default("US_STOCK"),
});
/** Reference data as the upstream sends it: records of scalar fields (numbers as decimal strings). */
const records = z.object({ records: z.array(z.record(z.string(), z.unknown())) });

export const MARKET_TOOLS = [
  defineTool({
    name: "get_stock_noii_bars",
    skill: "stock-noii-bars",
    title: "NOII bars",
    description:
      "Net Order Imbalance Indicator updates of a US stock's opening or closing auction, newest first (every 5 s of the window): " +
      "paired and imbalance shares, the side, reference, near and far indicative prices. Outside an auction window, the last window's.",
    permission: "market:read",
    readOnly: true,
    input: noiiInput,
    output: z.object({ bars: z.array(noiiRecord) }),
    run: async (input, ctx) => ({ bars: await ctx.broker.listStockNoiiBars(input) }),
  }),
  defineTool({
    name: "get_stock_noii_snapshot",
    skill: "stock-noii-snapshot",
    title: "NOII snapshot",
    description:
      "The latest Net Order Imbalance Indicator of a US stock's opening or closing auction: paired and imbalance shares, side, " +
      "reference, near and far indicative prices, and whether the auction window is open now.",
    permission: "market:read",
    readOnly: true,
    input: noiiInput,
    output: noiiRecord,
    run: (input, ctx) => ctx.broker.getStockNoiiSnapshot(input),
  }),
  defineTool({
    name: "get_gainers_losers",
    skill: "stock-gainers-losers",
    title: "Top gainers and losers",
    description:
      "The market's top gainers (direction DESC) or losers (ASC) over a period: symbol, name, price, change, change ratio, volume, " +
      "market value. Use it for 'what moved most today'.",
    permission: "market:read",
    readOnly: true,
    input: z.object({
      rank_type: gainersLosersIn.shape.rank_type.default("DAY_1").describe("The period: PRE_MARKET, AFTER_MARKET, MIN_3 … DAY_1 … WEEK_52"),
      category: z.enum(CATEGORIES).default("US_STOCK"),
      sort_by: z.string().min(1).max(32).default("CHANGE_RATIO"),
      direction: z.enum(["ASC", "DESC"]).default("DESC").describe("DESC: gainers; ASC: losers"),
      ...paging,
    }),
    output: ranking,
    run: async (input, ctx) => rankingOf(await ctx.broker.getGainersLosers(input)),
  }),
  defineTool({
    name: "get_most_active",
    skill: "stock-most-active",
    title: "Most active",
    description:
      "The most actively traded stocks, ranked by VOLUME (default), RELATIVE_VOLUME_10D, TURNOVER, TURNOVER_RATE or AMPLITUDE: symbol, " +
      "name, price, change ratio, volume, turnover.",
    permission: "market:read",
    readOnly: true,
    input: z.object({
      category: z.enum(CATEGORIES).default("US_STOCK"),
      rank_type: topActiveIn.shape.rank_type,
      sort_by: z.string().min(1).max(32).optional(),
      direction: z.enum(["ASC", "DESC"]).optional(),
      ...paging,
    }),
    output: ranking,
    run: async (input, ctx) => rankingOf(await ctx.broker.getTopActive(input)),
  }),
  defineTool({
    name: "get_company_profile",
    skill: "instrument-company-profile",
    title: "Company profile",
    description: "A listed company's profile: name, exchange, sector and industry, description, address, employees, listing date.",
    permission: "market:read",
    readOnly: true,
    input: symbolInput,
    output: records,
    run: async (input, ctx) => ({ records: await ctx.broker.getCompanyProfile(input) }),
  }),
  defineTool({
    name: "get_analyst_rating",
    skill: "instrument-analyst-rating",
    title: "Analyst rating",
    description: "Analysts' ratings of a stock: counts of strong buy, buy, hold, underperform and sell, and the consensus.",
    permission: "market:read",
    readOnly: true,
    input: symbolInput,
    output: records,
    run: async (input, ctx) => ({ records: await ctx.broker.getAnalystRating(input) }),
  }),
  defineTool({
    name: "get_analyst_target_price",
    skill: "instrument-analyst-target-price",
    title: "Analyst target price",
    description: "Analysts' price targets for a stock: the mean, high and low target and the number of analysts, in the stock's currency.",
    permission: "market:read",
    readOnly: true,
    input: symbolInput,
    output: records,
    run: async (input, ctx) => ({ records: await ctx.broker.getAnalystTargetPrice(input) }),
  }),
];
