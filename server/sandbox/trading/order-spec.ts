import "server-only";
import { ORDER_TYPES_BY_MARKET } from "@/lib/broker-enums";
import type { Queryable } from "@/server/db/engine";
import { business, illegal } from "../errors";
import { Decimal, parsePositive } from "../money";
import { parseDate } from "../validate";
import { resolveLegs } from "./options";
import type { AccountForOrders, OrderSpec } from "./order-types";

export type { AccountForOrders, OrderSpec } from "./order-types";

export const COMBO_TYPES = ["NORMAL", "MASTER", "STOP_PROFIT", "STOP_LOSS", "OTO", "OCO", "OTOCO"];
const CLIENT_ID_RE = /^[A-Za-z0-9_-]{1,32}$/;
export const NEEDS_LIMIT = ["LIMIT", "STOP_LOSS_LIMIT", "TOUCH_LMT", "ENHANCED_LIMIT", "AT_AUCTION_LIMIT", "ODD_LOT_LIMIT"];
export const NEEDS_STOP = ["STOP_LOSS", "STOP_LOSS_LIMIT", "TOUCH_MKT", "TOUCH_LMT"];
const PERMISSION: Record<string, string> = { US: "US_STOCK_NORMAL", HK: "HK_STOCK_NORMAL", CN: "CN_STOCK_NORMAL" };

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
/** An enum field: absent (undefined or null) takes the fallback; present, it must be one of the allowed strings. */
function pick<T extends string>(v: unknown, allowed: readonly T[], field: string, fallback?: T): T {
  if (v !== undefined && v !== null && (typeof v !== "string" || v === "")) throw illegal(`${field} must be one of ${allowed.join(", ")}.`);
  const s = str(v) ?? fallback;
  if (s === undefined) throw illegal(`${field} is required.`);
  if (!(allowed as readonly string[]).includes(s)) throw illegal(`${field} must be one of ${allowed.join(", ")}.`);
  return s as T;
}
const optDec = (v: unknown, field: string) => (v === undefined || v === null || v === "" ? null : parsePositive(v, field));

/** US stock prices move in cents from $1 up and in hundredths of a cent below (Reg NMS 612). */
export function checkUsStockTick(price: Decimal | string | null, field: string): void {
  if (price === null) return;
  const p = new Decimal(price);
  const places = p.gte(1) ? 2 : 4;
  if (p.decimalPlaces() > places)
    throw illegal(`${field} ${p.toFixed()} is finer than the tick: at most ${places} decimals ${p.gte(1) ? "from $1 up" : "below $1"}.`);
}
/** The values replace accepts for the trailing and trigger fields, as place does. */
/** An order's prices, as stored and as a replace may change them: limit, stop, and the trailing stop's step and offset. */
export const PRICE_FIELDS = [
  "limit_price",
  "stop_price",
  "trailing_type",
  "trailing_stop_step",
  "trailing_limit_price_offset",
  "trigger_price_type",
] as const;
export const TRAILING_TYPES = ["AMOUNT", "PERCENTAGE"] as const;
export const TRIGGER_PRICE_TYPES = ["PRICE", "PRICE_BID", "PRICE_ASK"] as const;

/** A stock instrument as an order reads it; `instruments` passes those already read, keyed "market|symbol". */
export interface OrderInstrument {
  instrument_id: string;
  currency: string;
  category: string;
  profile: Record<string, unknown>;
  locate: Record<string, string>;
}

export async function parseOrder(
  db: Queryable,
  raw: Record<string, unknown>,
  i: number,
  account: AccountForOrders,
  previewing = false,
  instruments?: Map<string, OrderInstrument>,
): Promise<OrderSpec> {
  const f = (name: string) => `new_orders[${i}].${name}`;
  const client_order_id = str(raw.client_order_id);
  if (!client_order_id || !CLIENT_ID_RE.test(client_order_id))
    throw illegal(`${f("client_order_id")} is required: 1 to 32 of A-Z a-z 0-9 _ -.`);
  const instrument_type = pick(raw.instrument_type, ["EQUITY", "OPTION"] as const, f("instrument_type"));
  const market = pick(raw.market, ["US", "HK", "CN"] as const, f("market"));
  const side = pick(raw.side, ["BUY", "SELL", "SHORT"] as const, f("side"));
  const order_type = pick(raw.order_type, Object.values(ORDER_TYPES_BY_MARKET).flat(), f("order_type"));
  const time_in_force = pick(raw.time_in_force, ["DAY", "GTC", "GTD"] as const, f("time_in_force"));
  const entrust_type = pick(raw.entrust_type, ["QTY", "AMOUNT"] as const, f("entrust_type"), "QTY");
  const sessions = ["CORE", "ALL", "NIGHT", "ALL_DAY", "Y", "N"] as const;
  if (previewing && !str(raw.support_trading_session)) throw illegal(`${f("support_trading_session")} is required for preview.`);
  const sessionRaw = pick(raw.support_trading_session, sessions, f("support_trading_session"), "CORE");
  // Y / N are the deprecated spellings of ALL / CORE.
  const trading_session = sessionRaw === "Y" ? "ALL" : sessionRaw === "N" ? "CORE" : sessionRaw;
  const symbol = str(raw.symbol);
  if (!symbol) throw illegal(`${f("symbol")} is required.`);
  if (!account.trading_permissions.includes(instrument_type === "OPTION" ? "US_OPTION_NORMAL" : PERMISSION[market])) {
    throw business(
      "TRADING_PERMISSION_DENIED",
      `Account ${account.account_number} has no ${instrument_type === "OPTION" ? "US_OPTION_NORMAL" : PERMISSION[market]} permission.`,
    );
  }
  const allowedTypes: readonly string[] = ORDER_TYPES_BY_MARKET[instrument_type === "OPTION" ? "OPTION" : market];
  if (!allowedTypes.includes(order_type))
    throw business(
      "UNSUPPORTED_ORDER_TYPE",
      `${order_type} is not supported for ${instrument_type === "OPTION" ? "US options" : `${market} stocks`}.`,
    );

  const expire_date = parseDate(str(raw.expire_date), f("expire_date")) ?? null;
  if (time_in_force === "GTD" && !expire_date) throw illegal(`${f("expire_date")} is required when time_in_force is GTD.`);
  if (time_in_force !== "GTD" && expire_date) throw illegal(`${f("expire_date")} is only allowed with time_in_force GTD.`);

  const spec: OrderSpec = {
    client_order_id,
    combo_type: pick(raw.combo_type, COMBO_TYPES, f("combo_type"), "NORMAL"),
    instrument_type,
    market,
    symbol,
    currency: "USD",
    category: "US_STOCK",
    instrument_id: "",
    lot_size: new Decimal(1),
    profile: {},
    locate: {},
    side,
    order_type,
    entrust_type,
    time_in_force,
    expire_date,
    trading_session,
    quantity: optDec(raw.quantity, f("quantity")),
    total_cash_amount: optDec(raw.total_cash_amount, f("total_cash_amount")),
    limit_price: optDec(raw.limit_price, f("limit_price")),
    stop_price: optDec(raw.stop_price, f("stop_price")),
    trailing_type: raw.trailing_type == null ? null : pick(raw.trailing_type, TRAILING_TYPES, f("trailing_type")),
    trailing_stop_step: optDec(raw.trailing_stop_step, f("trailing_stop_step")),
    trailing_limit_price_offset: optDec(raw.trailing_limit_price_offset ?? raw.trailing_limit_price, f("trailing_limit_price_offset")),
    trigger_price_type: raw.trigger_price_type == null ? null : pick(raw.trigger_price_type, TRIGGER_PRICE_TYPES, f("trigger_price_type")),
    option_strategy: null,
    legs: null,
    extra: Object.fromEntries(
      ["no_party_ids", "sender_sub_id", "position_intent"].filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]),
    ),
  };
  if (NEEDS_LIMIT.includes(order_type) && !spec.limit_price) throw illegal(`${f("limit_price")} is required for ${order_type}.`);
  if (market === "US" && instrument_type === "EQUITY") {
    checkUsStockTick(spec.limit_price, f("limit_price"));
    checkUsStockTick(spec.stop_price, f("stop_price"));
  }
  if (NEEDS_STOP.includes(order_type) && !spec.stop_price) throw illegal(`${f("stop_price")} is required for ${order_type}.`);
  if (order_type.startsWith("TRAILING")) {
    if (!spec.trailing_type || !spec.trailing_stop_step)
      throw illegal(`${f("trailing_type")} and ${f("trailing_stop_step")} are required for ${order_type}.`);
    if (order_type.endsWith("LIMIT") && !spec.trailing_limit_price_offset)
      throw illegal(`${f("trailing_limit_price_offset")} is required for ${order_type}.`);
  }
  if (entrust_type === "QTY" && !spec.quantity) throw illegal(`${f("quantity")} is required when entrust_type is QTY.`);
  if (entrust_type === "AMOUNT") {
    if (!spec.total_cash_amount) throw illegal(`${f("total_cash_amount")} is required when entrust_type is AMOUNT.`);
    if (market !== "US" || instrument_type !== "EQUITY" || side !== "BUY" || !["MARKET", "LIMIT"].includes(order_type)) {
      throw business("UNSUPPORTED_ENTRUST_TYPE", "AMOUNT orders are US stock BUY orders of type MARKET or LIMIT.");
    }
  }

  if (instrument_type === "OPTION") {
    if (market !== "US") throw business("UNSUPPORTED_CATEGORY", "Options trade in the US market only (category US_OPTION).");
    if (side === "SHORT") throw illegal(`${f("side")}: option orders use BUY or SELL (per leg).`);
    Object.assign(spec, await resolveLegs(db, raw, spec, account, f));
    return spec;
  }
  return withStock(db, spec, account, f, instruments?.get(`${spec.market}|${spec.symbol}`));
}

async function withStock(
  db: Queryable,
  spec: OrderSpec,
  account: AccountForOrders,
  f: (n: string) => string,
  known?: OrderInstrument,
): Promise<OrderSpec> {
  const inst =
    known ??
    (
      await db.query<OrderInstrument>(
        "SELECT instrument_id, currency, category, profile, locate FROM sandbox.instruments WHERE market = $1 AND symbol = $2",
        [spec.market, spec.symbol],
      )
    ).rows[0];
  if (!inst) throw business("INSTRUMENT_NOT_FOUND", "instrument not exists");
  Object.assign(spec, {
    instrument_id: inst.instrument_id,
    currency: inst.currency,
    category: inst.category,
    profile: inst.profile,
    locate: inst.locate,
  });
  spec.lot_size = new Decimal(String(inst.profile.lot_size ?? "1"));
  if (inst.profile.status !== "OC")
    throw business("INSTRUMENT_NOT_TRADABLE", `${spec.symbol} is not tradable (status ${String(inst.profile.status)}).`);
  const q = spec.quantity;
  const fractional =
    spec.market === "US" && inst.profile.fractionable === true && account.trading_permissions.includes("US_STOCK_FRACTIONAL");
  // AMOUNT orders size their quantity at the fill; internal flags start with "_" and are not shown.
  if (fractional) spec.extra._fractional = true;
  if (q) {
    if (!q.isInteger() && !fractional) throw business("FRACTIONAL_NOT_ALLOWED", `${f("quantity")} must be a whole number of shares.`);
    if (spec.order_type === "ODD_LOT_LIMIT") {
      if (!q.lt(spec.lot_size))
        throw business("INVALID_LOT_SIZE", `ODD_LOT_LIMIT quantity must be below the lot size ${spec.lot_size.toString()}.`);
    } else if (spec.market !== "US" && !q.mod(spec.lot_size).isZero()) {
      throw business(
        "INVALID_LOT_SIZE",
        `${f("quantity")} must be a multiple of the lot size ${spec.lot_size.toString()} (use ODD_LOT_LIMIT for odd lots).`,
      );
    }
  }
  if (spec.side === "SHORT") {
    if (spec.market !== "US") throw business("SHORT_NOT_ALLOWED", "Short selling is offered for US stocks only.");
    if (account.account_type !== "MARGIN") throw business("SHORT_NOT_ALLOWED", "Short selling needs a MARGIN account.");
    if (inst.profile.shortable !== true || inst.locate.shortable !== "Y")
      throw business("NOT_SHORTABLE", `${spec.symbol} is not shortable.`);
    // Hard-to-borrow names need a locate: the order may not exceed the shares the locate reports available.
    if (inst.locate.short_type === "HTB" && (!q || q.gt(inst.locate.available_num))) {
      throw business(
        "LOCATE_REQUIRED",
        `${spec.symbol} is hard to borrow: locate available ${inst.locate.available_num}, requested ${q?.toString() ?? "an amount"}.`,
      );
    }
  }
  if (spec.trading_session === "NIGHT" || spec.trading_session === "ALL_DAY") {
    if (spec.market !== "US" || inst.profile.overnight_trading_supported !== true) {
      throw business("OPENAPI_NO_NIGHT_TRADING_TIME", "The current period does not support placing night orders");
    }
  }
  return spec;
}
