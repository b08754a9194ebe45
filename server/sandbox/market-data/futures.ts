import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, OpContext, Sandbox } from "../context";
import { business, illegal } from "../errors";
import { marketDataLimit } from "../rate-limit";
import { route } from "../router";
import { trading } from "../trading/state";
import { oneOf, required } from "../validate";
import { catalogOn, classOf, FUTURES_CATEGORY, PRODUCT_CLASSES, PRODUCTS, settlementOf, type FuturesContract } from "./futures-catalog";

/**
 * Futures reference data of the Market Data API (futures-catalog.ts): product classes, products, and the contracts
 * listed on the market clock's day, by symbols, by product code or all of them. Every answer is a bare array on both
 * path styles, as the SDKs read them (Python the response as is; Java `List<FuturesProductClass>`, …). Filters narrow
 * (an unknown symbol is left out, as the stock instrument list does); by-code names one product, so an unknown code is
 * refused. Counted against the market-data rate limit like every market-data call.
 */
type Query = Record<string, string>;

/** US_FUTURES only (the SDKs' default); HK_FUTURES and the rest → UNSUPPORTED_CATEGORY. */
function categoryOf(q: Query): void {
  const c = q.category || FUTURES_CATEGORY;
  if (c !== FUTURES_CATEGORY) throw business("UNSUPPORTED_CATEGORY", `Category ${c} is not supported; use ${FUTURES_CATEGORY}.`);
}

const productView = (code: string) => {
  const product = PRODUCTS.find((p) => p.code === code)!;
  return {
    code: product.code,
    name: product.name,
    product_class_id: product.classId,
    product_class_name: classOf(product.classId).product_class_name,
    exchange_code: product.exchange,
    category: FUTURES_CATEGORY,
    currency: "USD",
    size: product.size,
    unit: product.unit,
    multiplier: product.multiplier,
    min_tick: product.minTick,
    settlement: settlementOf(product),
  };
};

const listOf = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export function futuresRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  const t = trading(sb);
  const today = () => t.now().toISOString().slice(0, 10);
  const md = (name: Parameters<typeof route>[2], fn: (q: Query, ctx: OpContext) => unknown) =>
    route(app, sb, name, async (ctx) => {
      marketDataLimit(sb, ctx.c.get("principal").appKey);
      categoryOf(ctx.query);
      return fn(ctx.query, ctx);
    });
  const status = (q: Query) => oneOf(q.status, ["OC", "CO", "NT"], "status");

  md("listFuturesProductClasses", () =>
    PRODUCT_CLASSES.map((c) => ({
      ...c,
      product_codes: PRODUCTS.filter((p) => p.classId === c.product_class_id).map((p) => p.code),
    })),
  );

  md("listFuturesProducts", (q) => {
    const raw = q.product_class_id;
    if (raw !== undefined && raw !== "" && !/^\d{1,9}$/.test(raw)) throw illegal("product_class_id must be an integer.");
    const classId = raw ? Number(raw) : undefined;
    return PRODUCTS.filter((p) => classId === undefined || p.classId === classId).map((p) => productView(p.code));
  });

  md("listFuturesInstruments", (q) => {
    const symbols = new Set(listOf(q.symbols ?? q.symbol).map((s) => s.toUpperCase()));
    const code = q.code?.trim().toUpperCase();
    const wanted = status(q);
    return catalogOn(today()).filter(
      (c) => (!symbols.size || symbols.has(c.symbol.toUpperCase())) && (!code || c.code === code) && (!wanted || c.status === wanted),
    );
  });

  md("listFuturesInstrumentsByCode", (q) => {
    const code = required(q, "code").trim().toUpperCase();
    if (!PRODUCTS.some((p) => p.code === code)) throw business("PRODUCT_NOT_FOUND", `Futures product ${code} does not exist.`);
    const type = oneOf(q.contract_type, ["MONTHLY", "MAIN"], "contract_type");
    return catalogOn(today()).filter((c: FuturesContract) => c.code === code && (!type || c.contract_type === type));
  });
}
