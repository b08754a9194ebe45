import "server-only";
import { z } from "zod";
import { FUTURES_CATEGORIES } from "@/server/broker/schemas/futures";
import { defineTool } from "../tool";

/**
 * The spec's futures reference tools, with the official MCP tools' parameters (`get_futures_instruments`,
 * `get_futures_products`, `get_futures_product_class`): product classes, products with their contract terms, and the
 * listed contracts with their months and dates. Each reads through the desk's Broker client (the caller's context
 * records the upstream request id in the audit entry).
 */
const text = z.string().nullish();
const decimal = z.string().nullish().describe("a decimal as a string");
const category = z.enum(FUTURES_CATEGORIES).default("US_FUTURES").describe("US_FUTURES (HK_FUTURES where the upstream serves it)");

const productClass = z.object({
  product_class_id: z.string(),
  product_class_name: text,
  product_codes: z.array(z.string()).nullish().describe("The codes of the class's products, e.g. ES, NQ"),
});
const product = z.object({
  code: z.string().describe("The product code, e.g. ES"),
  name: text,
  product_class_id: text,
  product_class_name: text,
  exchange_code: text,
  currency: text,
  size: decimal.describe("Contract size in `unit`"),
  unit: text,
  multiplier: decimal.describe("Value of one point of the price, in the currency"),
  min_tick: decimal.describe("Minimum price move"),
  settlement: text.describe("CASH or PHYSICAL"),
});
const contract = product.omit({ product_class_id: true, product_class_name: true }).extend({
  symbol: z.string().describe("e.g. ESZ6 (code, month letter, year's last digit); ESmain is the main contract"),
  code: text,
  instrument_id: text,
  contract_id: text.describe("The dated contract's id (for a main contract, the one it tracks)"),
  contract_type: text.describe("MONTHLY or MAIN"),
  contract_month: text.describe("yyyyMM"),
  first_trading_date: text,
  last_trading_date: text,
  first_notice_date: text,
  last_notice_date: text,
  settlement_date: text,
  status: text.describe("OC tradable, CO liquidate only, NT not tradable"),
});

export const FUTURES_TOOLS = [
  defineTool({
    name: "get_futures_instruments",
    skill: "instrument-futures-list",
    title: "Futures contracts",
    description:
      "Futures contracts: by symbols (e.g. ESZ6,NQmain), by product code (e.g. ES: the product's main contract and every listed month), " +
      "or all of them, optionally only those of a status. Returns symbol, name, contract month, first and last trading dates, first " +
      "notice date, settlement, exchange, size, multiplier and tick size. Use get_futures_products for the codes.",
    permission: "market:read",
    readOnly: true,
    input: z.object({
      symbols: z.string().trim().max(1000).optional().describe("Comma-separated contract symbols, e.g. ESZ6,CLmain"),
      code: z.string().trim().toUpperCase().min(1).max(12).optional().describe("A product code, e.g. ES"),
      category,
      status: z.enum(["OC", "CO", "NT"]).optional().describe("OC (Tradable), CO (Liquidate only), NT (Non-Tradable)"),
    }),
    output: z.object({ instruments: z.array(contract) }),
    run: async ({ symbols, ...input }, ctx) => {
      const list = symbols
        ?.split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      return { instruments: await ctx.broker.listFuturesInstruments({ ...input, symbols: list?.length ? list : undefined }) };
    },
  }),
  defineTool({
    name: "get_futures_products",
    skill: "instrument-futures-products",
    title: "Futures products",
    description:
      "Every futures product and its code (e.g. ES E-mini S&P 500, CL Crude Oil), optionally of one product class: class, exchange, " +
      "currency, contract size and unit, multiplier, tick size, cash or physical settlement.",
    permission: "market:read",
    readOnly: true,
    input: z.object({
      category,
      product_class_id: z.number().int().min(0).optional().describe("Only the products of this class (get_futures_product_class)"),
    }),
    output: z.object({ products: z.array(product) }),
    run: async (input, ctx) => ({ products: await ctx.broker.listFuturesProducts(input) }),
  }),
  defineTool({
    name: "get_futures_product_class",
    skill: "instrument-futures-product-class",
    title: "Futures product classes",
    description:
      "The futures product classes (equity index, energy, metals, interest rates, currencies): id, name and their product codes.",
    permission: "market:read",
    readOnly: true,
    input: z.object({ category }),
    output: z.object({ product_classes: z.array(productClass) }),
    run: async (input, ctx) => ({ product_classes: await ctx.broker.listFuturesProductClasses(input) }),
  }),
];
