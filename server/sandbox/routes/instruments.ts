import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { parseDecimal, price } from "../money";
import { cursorOf, page, pageSize } from "../paging";
import { route } from "../router";
import { oneOf, parseDate, required } from "../validate";

export const STOCK_CATEGORIES = ["US_STOCK", "HK_STOCK", "CN_STOCK"] as const;
export const SUB_CATEGORIES = ["COMMON_STOCK", "ETF", "PREFERRED_STOCK", "WARRANT", "UNITS", "RIGHT"] as const;
export const MARKETS = ["US", "HK", "CN"] as const;

export interface InstrumentRow {
  instrument_id: string;
  symbol: string;
  market: string;
  category: string;
  sub_category: string;
  currency: string;
  last_price: string;
  profile: Record<string, unknown>;
  locate: Record<string, unknown>;
}
interface ContractRow {
  instrument_id: string;
  symbol: string;
  root_symbol: string;
  option_type: string;
  strike_price: string;
  expiration_date: string | Date;
  style: string;
  status: string;
  ppind: boolean;
  last_price: string;
  multiplier: number;
  deliverables: unknown[];
}

export const instrumentView = (r: InstrumentRow) => ({
  instrument_id: r.instrument_id,
  symbol: r.symbol,
  market: r.market,
  category: r.category,
  sub_category: r.sub_category,
  currency: r.currency,
  last_price: price(r.last_price),
  ...r.profile,
});

const dateText = (d: string | Date) => (typeof d === "string" ? d.slice(0, 10) : d.toISOString().slice(0, 10));

export function instrumentRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "listStockInstruments", async (ctx) => {
    const q = ctx.query;
    const size = pageSize(q, ctx.maxPageSize);
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => (params.push(v), where.push(sql.replace("?", `$${params.length}`)));
    const symbols = q.symbols ?? q.symbol;
    if (symbols)
      add(
        "symbol = ANY(?)",
        symbols.split(",").map((s) => s.trim()),
      );
    if (q.category) add("category = ?", oneOf(q.category, STOCK_CATEGORIES, "category"));
    if (q.market) add("market = ?", oneOf(q.market, MARKETS, "market"));
    if (q.sub_category) add("sub_category = ?", oneOf(q.sub_category, SUB_CATEGORIES, "sub_category"));
    if (q.status) add("profile->>'status' = ?", oneOf(q.status, ["OC", "CO", "NT"], "status"));
    const cursor = cursorOf(ctx, "last_instrument_id");
    if (cursor) add("instrument_id > ?", cursor);
    params.push(size + 1);
    const { rows } = await sb.engine.query<InstrumentRow>(
      `SELECT * FROM sandbox.instruments ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY instrument_id LIMIT $${params.length}`,
      params,
    );
    return page(ctx, rows.map(instrumentView), size, (i) => i.instrument_id);
  });

  route(app, sb, "getStockLocate", async ({ query }) => {
    const symbol = required(query, "symbol");
    const market = oneOf(query.market, MARKETS, "market") ?? "US";
    const { rows } = await sb.engine.query<InstrumentRow>("SELECT * FROM sandbox.instruments WHERE symbol = $1 AND market = $2", [
      symbol,
      market,
    ]);
    if (!rows[0]) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
    return { symbol, ...rows[0].locate };
  });

  route(app, sb, "getCorporateAction", async ({ query }) => {
    const eventId = required(query, "event_id");
    const { rows } = await sb.engine.query<{ detail: Record<string, unknown> }>(
      "SELECT detail FROM sandbox.corporate_actions WHERE event_id = $1",
      [eventId],
    );
    if (!rows[0]) throw business("CORPORATE_ACTION_NOT_FOUND", `Corporate action ${eventId} does not exist.`);
    return rows[0].detail;
  });

  // Option contracts page with page_size + last_instrument_id and answer a bare array on both path styles (spec).
  route(app, sb, "listOptionContracts", async ({ query: q }) => {
    if (q.category && q.category !== "US_OPTION") throw business("UNSUPPORTED_CATEGORY", "Only category US_OPTION is supported.");
    const size = pageSize(q);
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, v: unknown) => (params.push(v), where.push(sql.replace("?", `$${params.length}`)));
    if (q.status) add("status = ?", oneOf(q.status, ["ACTIVE", "INACTIVE"], "status"));
    if (q.root_symbol) add("root_symbol = ANY(?)", q.root_symbol.split(","));
    if (q.option_symbol) add("symbol = ?", q.option_symbol.replace(/\s+/g, ""));
    if (q.option_type) add("option_type = ?", oneOf(q.option_type, ["CALL", "PUT"], "option_type"));
    if (q.style) add("style = ?", oneOf(q.style, ["AMERICAN", "EUROPEAN"], "style"));
    if (q.ppind) add("ppind = ?", oneOf(q.ppind, ["true", "false"], "ppind") === "true");
    const exp = parseDate(q.expiration_date, "expiration_date");
    const expGte = parseDate(q.expiration_date_gte, "expiration_date_gte");
    const expLte = parseDate(q.expiration_date_lte, "expiration_date_lte");
    if (exp) add("expiration_date = ?::date", exp);
    if (expGte) add("expiration_date >= ?::date", expGte);
    if (expLte) add("expiration_date <= ?::date", expLte);
    if (q.strike_price_gte) add("strike_price >= ?", parseDecimal(q.strike_price_gte, "strike_price_gte").toFixed());
    if (q.strike_price_lte) add("strike_price <= ?", parseDecimal(q.strike_price_lte, "strike_price_lte").toFixed());
    if (q.last_instrument_id) add("instrument_id > ?", q.last_instrument_id);
    const show = oneOf(q.show_deliverables, ["true", "false"], "show_deliverables") === "true";
    if (q.pagination_key) throw illegal("Option contracts page with last_instrument_id, not pagination_key.");
    params.push(size);
    const { rows } = await sb.engine.query<ContractRow>(
      `SELECT instrument_id, symbol, root_symbol, option_type, strike_price, expiration_date::text AS expiration_date, style, status,
              ppind, last_price, multiplier, deliverables
         FROM sandbox.option_contracts ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY instrument_id LIMIT $${params.length}`,
      params,
    );
    return rows.map((r) => ({
      instrument_id: r.instrument_id,
      symbol: r.symbol,
      category: "US_OPTION",
      root_symbol: r.root_symbol,
      underlying_symbol: r.root_symbol,
      option_type: r.option_type,
      strike_price: price(r.strike_price),
      expiration_date: dateText(r.expiration_date),
      style: r.style,
      status: r.status,
      ppind: r.ppind,
      currency: "USD",
      last_price: price(r.last_price),
      multiplier: String(r.multiplier),
      ...(show ? { deliverables: r.deliverables } : {}),
    }));
  });
}
