import "server-only";
import type { Queryable } from "@/server/db/engine";
import { Decimal } from "../money";
import { charges } from "./fees";
import { multiplierOf, type OrderRow } from "./order-store";
import type { MarketView } from "./state";

/**
 * Prices an order against the simulated market. A multi-leg option order is priced as one instrument whose ask is
 * Σ(BUY legs at ask) − Σ(SELL legs at bid) and whose bid is the reverse, per unit in per-share terms.
 */
export interface Book {
  last: Decimal;
  bid: Decimal;
  ask: Decimal;
  liquidity: Decimal;
}

type Priced = Pick<OrderRow, "instrument_type" | "market" | "symbol" | "legs">;

export function bookOf(t: MarketView, o: Priced): Book | undefined {
  if (o.legs && o.legs.length > 1) {
    let ask = new Decimal(0);
    let bid = new Decimal(0);
    let last = new Decimal(0);
    let liquidity = new Decimal(Infinity);
    for (const l of o.legs) {
      const q = t.market.get(l.instrument_type, "US", l.symbol);
      if (!q) return undefined;
      const s = t.market.spread(q);
      const w = new Decimal(l.ratio).times(l.multiplier).div(100);
      const sign = l.side === "BUY" ? 1 : -1;
      ask = ask.plus(w.times(sign > 0 ? s.ask : s.bid).times(sign));
      bid = bid.plus(w.times(sign > 0 ? s.bid : s.ask).times(sign));
      last = last.plus(w.times(q.last).times(sign));
      liquidity = Decimal.min(liquidity, q.liquidity);
    }
    return { last, bid, ask, liquidity };
  }
  const q = t.market.get(o.instrument_type, o.market, o.symbol);
  if (!q) return undefined;
  return { last: q.last, ...t.market.spread(q), liquidity: q.liquidity };
}

/** Price at which a BUY could execute now, used to size holds: the limit, else the stop, else ask + 5 %. */
export function referencePrice(t: MarketView, o: OrderRow): Decimal {
  if (o.limit_price) return new Decimal(o.limit_price);
  if (o.stop_price) return new Decimal(o.stop_price);
  const b = bookOf(t, o);
  return b ? b.ask.times("1.05") : new Decimal(0);
}

/** Cash an open order reserves: see funds.ts for the margin rules. Multi-leg credit orders hold 20 % of short strikes. */
export async function estimateHold(
  db: Queryable,
  t: MarketView,
  o: OrderRow,
  accountType: string,
  profile?: Record<string, unknown>,
): Promise<Decimal> {
  const units = new Decimal(o.quantity ?? 0).minus(o.filled_quantity);
  if (o.legs && o.legs.length > 1) {
    const net = new Decimal(o.limit_price ?? 0).times(100).times(units);
    const shortStrikes = o.legs
      .filter((l) => l.side === "SELL" && l.option)
      .reduce((s, l) => s.plus(new Decimal(l.option!.strike).times(l.multiplier).times(l.ratio)), new Decimal(0))
      .times(units)
      .times("0.2");
    const fee = charges({ market: "US", instrumentType: "OPTION", side: "BUY", quantity: units, value: net.abs() }, null);
    return (o.side === "BUY" ? net : shortStrikes).plus(fee.commission).plus(fee.feeTotal).toDecimalPlaces(2);
  }
  if (o.side === "SELL" && o.instrument_type === "EQUITY") return new Decimal(0);
  const value =
    o.entrust_type === "AMOUNT" && o.total_cash_amount
      ? new Decimal(o.total_cash_amount).minus(new Decimal(o.filled_value))
      : units.times(referencePrice(t, o)).times(multiplierOf(o));
  if (o.instrument_type === "OPTION" && o.side === "SELL") {
    // A written option holds 20 % of its strike value (covered or closing sales are checked at fill instead).
    const strike = o.legs?.[0]?.option?.strike ?? "0";
    return units.times(strike).times(100).times("0.2").toDecimalPlaces(2);
  }
  let ratio = new Decimal(1);
  if (accountType === "MARGIN" && o.instrument_type === "EQUITY") {
    const p =
      profile ??
      (
        await db.query<{ profile: Record<string, unknown> }>("SELECT profile FROM sandbox.instruments WHERE market = $1 AND symbol = $2", [
          o.market,
          o.symbol,
        ])
      ).rows[0]?.profile;
    const r = p && {
      l: p.margin_requirement_long as string | undefined,
      s: p.margin_requirement_short as string | undefined,
      m: p.marginable === true,
    };
    ratio = o.side === "SHORT" ? new Decimal(r?.s ?? "1.5").minus(1) : r?.m ? new Decimal(r.l ?? 1) : new Decimal(1);
  }
  const fee = charges({ market: o.market, instrumentType: o.instrument_type, side: o.side, quantity: units, value }, null);
  return value.times(ratio).plus(fee.commission).plus(fee.feeTotal).toDecimalPlaces(2);
}

export type Decision =
  | { kind: "none" }
  | { kind: "watermark"; watermark: Decimal }
  | { kind: "trigger"; watermark?: Decimal; limit?: Decimal }
  | { kind: "fill"; quantity: Decimal; price: Decimal; trigger?: { watermark?: Decimal; limit?: Decimal } };

const MARKET_LIKE = ["MARKET", "STOP_LOSS", "TOUCH_MKT", "TRAILING_STOP_LOSS", "AT_AUCTION", "MARKET_ON_OPEN", "MARKET_ON_CLOSE"];

/** What the market does to a working order now (the session has been checked by the caller). */
export function decide(t: MarketView, o: OrderRow): Decision {
  const b = bookOf(t, o);
  if (!b) return { kind: "none" };
  const buy = o.side === "BUY";
  const ref = o.trigger_price_type === "PRICE_BID" ? b.bid : o.trigger_price_type === "PRICE_ASK" ? b.ask : b.last;
  let limit = o.limit_price ? new Decimal(o.limit_price) : undefined;
  let trigger: { watermark?: Decimal; limit?: Decimal } | undefined;
  if (!o.triggered && (o.order_type.startsWith("STOP") || o.order_type.startsWith("TOUCH") || o.order_type.startsWith("TRAILING"))) {
    let fired: boolean;
    let watermark: Decimal | undefined;
    if (o.order_type.startsWith("TRAILING")) {
      const prev = o.watermark ? new Decimal(o.watermark) : ref;
      watermark = buy ? Decimal.min(prev, ref) : Decimal.max(prev, ref);
      const step = new Decimal(o.trailing_stop_step!);
      const offset = o.trailing_type === "PERCENTAGE" ? watermark.times(step).div(100) : step;
      const stop = buy ? watermark.plus(offset) : watermark.minus(offset);
      fired = buy ? ref.gte(stop) : ref.lte(stop);
      if (fired && o.order_type.endsWith("LIMIT")) {
        const off = new Decimal(o.trailing_limit_price_offset!);
        limit = buy ? stop.plus(off) : stop.minus(off);
      }
    } else {
      const stop = new Decimal(o.stop_price!);
      const stopLike = o.order_type.startsWith("STOP");
      fired = stopLike === buy ? ref.gte(stop) : ref.lte(stop);
    }
    if (!fired) return watermark && !watermark.eq(o.watermark ?? -1) ? { kind: "watermark", watermark } : { kind: "none" };
    trigger = { watermark, limit: limit && !o.limit_price ? limit : undefined };
  }
  // A combo executes every leg on its own side, so its price is always the book's ask: a debit to pay (BUY) or,
  // negated, a credit to receive (SELL).
  const combo = !!o.legs && o.legs.length > 1;
  const px = buy || combo ? b.ask : b.bid;
  const marketable =
    MARKET_LIKE.includes(o.order_type) ||
    (limit !== undefined && (combo && !buy ? px.neg().gte(limit) : buy ? px.lte(limit) : px.gte(limit)));
  if (!marketable) return trigger ? { kind: "trigger", ...trigger } : { kind: "none" };
  let remaining = new Decimal(o.quantity ?? 0).minus(o.filled_quantity);
  if (o.entrust_type === "AMOUNT" && o.quantity == null) {
    const budget = new Decimal(o.total_cash_amount!).minus(o.filled_value);
    remaining = budget.div(px).toDecimalPlaces(o.extra._fractional ? 4 : 0, Decimal.ROUND_DOWN);
  }
  let quantity = Decimal.min(remaining, b.liquidity);
  // Round lots: a partial fill of a board-lot order is a whole number of lots.
  if (o.market !== "US" && o.order_type !== "ODD_LOT_LIMIT" && quantity.lt(remaining)) {
    const lot = t.market.get(o.instrument_type, o.market, o.symbol)?.lot ?? new Decimal(1);
    quantity = quantity.div(lot).floor().times(lot);
  }
  if (quantity.lte(0)) return trigger ? { kind: "trigger", ...trigger } : { kind: "none" };
  return { kind: "fill", quantity, price: px, trigger };
}
