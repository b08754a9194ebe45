import type { z } from "zod";
import { nameStrategy, type StrategyLeg } from "@/lib/option-strategy";
import { isTrailing, needsLimit, needsStop, opposite, type placeTicketSchema, type TicketMarket, type TicketValues } from "./order-ticket";

/**
 * The order ticket on the wire (facts §5.1): the request a parsed ticket makes, the ids of a combo's members, and
 * what identifies a ticket's content. Plain code: the form (the ticket's id) and the actions share it.
 */
/** Derived ids of the other orders of a combo: the ticket's one id plus a suffix, so a retry repeats all of them. */
export const childOrderId = (id: string, role: "profit" | "loss" | "oco") =>
  `${id}-${role === "profit" ? "tp" : role === "loss" ? "sl" : "oc"}`;

export interface WireLeg {
  instrument_type: "OPTION";
  market: "US";
  symbol: string;
  side: "BUY" | "SELL";
  quantity: string;
  strike_price: string;
  option_expire_date: string;
  option_type: "CALL" | "PUT";
}

export interface WireOrder {
  combo_type: string;
  client_order_id: string;
  instrument_type: "EQUITY" | "OPTION";
  market: TicketMarket;
  symbol: string;
  order_type: string;
  entrust_type: "QTY" | "AMOUNT";
  support_trading_session: string;
  time_in_force: string;
  expire_date?: string;
  side: string;
  quantity?: string;
  total_cash_amount?: string;
  limit_price?: string;
  stop_price?: string;
  trailing_type?: string;
  trailing_stop_step?: string;
  trailing_limit_price_offset?: string;
  option_strategy?: string;
  legs?: WireLeg[];
}

const rootOf = (occ: string) => occ.replace(/\d{6}[CP]\d{8}$/, "");

/** The wire body of a ticket (facts §5.1): the main order, then the combo's other orders. Same values, same bytes. */
export function toOrderRequest(v: z.output<typeof placeTicketSchema>): { account_id: string; new_orders: WireOrder[] } {
  const option = v.instrument_type === "OPTION";
  const strategy = option ? nameStrategy(v.legs as StrategyLeg[]) : undefined;
  const amount = v.entrust_type === "AMOUNT";
  const comboOf = (role: "main" | "profit" | "loss" | "oco"): string => {
    if (v.combo === "NORMAL") return "NORMAL";
    if (v.combo === "MASTER") return role === "main" ? "MASTER" : role === "profit" ? "STOP_PROFIT" : "STOP_LOSS";
    return v.combo;
  };
  const base = {
    instrument_type: v.instrument_type,
    market: v.market,
    entrust_type: v.entrust_type,
    support_trading_session: v.trading_session,
    time_in_force: v.time_in_force,
    ...(v.time_in_force === "GTD" ? { expire_date: v.expire_date } : {}),
  } as const;
  const main: WireOrder = {
    ...base,
    combo_type: comboOf("main"),
    client_order_id: v.client_order_id,
    symbol: option ? rootOf(v.legs[0].symbol) : v.symbol,
    order_type: v.order_type,
    side: v.side,
    ...(amount ? { total_cash_amount: v.total_cash_amount } : { quantity: v.quantity }),
    ...(needsLimit(v.order_type) ? { limit_price: v.limit_price } : {}),
    ...(needsStop(v.order_type) ? { stop_price: v.stop_price } : {}),
    ...(isTrailing(v.order_type)
      ? {
          trailing_type: v.trailing_type,
          trailing_stop_step: v.trailing_stop_step,
          ...(v.order_type === "TRAILING_STOP_LOSS_LIMIT" ? { trailing_limit_price_offset: v.trailing_limit_price_offset } : {}),
        }
      : {}),
    ...(option && strategy
      ? {
          option_strategy: strategy,
          legs: v.legs.map((l) => ({
            instrument_type: "OPTION" as const,
            market: "US" as const,
            symbol: rootOf(l.symbol),
            side: l.side,
            quantity: l.ratio,
            strike_price: l.strike_price,
            option_expire_date: l.expiry,
            option_type: l.option_type,
          })),
        }
      : {}),
  };
  const orders = [main];
  const child = (role: "profit" | "loss" | "oco", fields: Partial<WireOrder>): WireOrder => ({
    ...base,
    combo_type: comboOf(role),
    client_order_id: childOrderId(v.client_order_id, role),
    symbol: v.symbol,
    quantity: v.quantity,
    side: v.side,
    order_type: "LIMIT",
    ...fields,
  });
  if (v.combo === "MASTER" || v.combo === "OTO" || v.combo === "OTOCO") {
    if (v.profit_enabled) orders.push(child("profit", { side: opposite(v.side), order_type: "LIMIT", limit_price: v.profit_limit_price }));
    if (v.loss_enabled) orders.push(child("loss", { side: opposite(v.side), order_type: "STOP_LOSS", stop_price: v.loss_stop_price }));
  }
  if (v.combo === "OCO") {
    orders.push(
      child("oco", {
        order_type: v.oco_order_type,
        ...(needsLimit(v.oco_order_type) ? { limit_price: v.oco_limit_price } : {}),
        ...(needsStop(v.oco_order_type) ? { stop_price: v.oco_stop_price } : {}),
      }),
    );
  }
  return { account_id: v.account_id, new_orders: orders };
}

/** What identifies a ticket's content (everything but its id): a changed ticket is a new order with a new id. */
export function ticketFingerprint(v: TicketValues): string {
  const { held: _held, account_option_level: _level, ...rest } = v;
  return stableJson(rest);
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** The role of each order of a request, read from its id (the main order, or a combo member's suffix). */
export function orderRoles(request: { new_orders: { client_order_id: string }[] }): ("main" | "profit" | "loss" | "oco")[] {
  return request.new_orders.map((o) =>
    o.client_order_id.endsWith("-tp")
      ? "profit"
      : o.client_order_id.endsWith("-sl")
        ? "loss"
        : o.client_order_id.endsWith("-oc")
          ? "oco"
          : "main",
  );
}
