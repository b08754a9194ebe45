import "server-only";
import { z } from "zod";
import { COMBO_TYPES, OPTION_STRATEGIES, ORDER_STATUSES, ORDER_TYPES, SIDES, TIME_IN_FORCE } from "@/lib/broker-enums";
import {
  clientId,
  dateIn,
  decimalIn,
  decimalOut,
  epochMsTimestamp,
  INSTRUMENT_TYPES,
  isoTimestamp,
  MARKETS,
  opt,
  pageIn,
  tolerantEnum,
} from "./common";

/** Orders (facts §5.1–5.2). Requests are strict; records are tolerant. */
export const ENTRUST_TYPES = ["QTY", "AMOUNT"] as const;
export const TRADING_SESSIONS = ["CORE", "ALL", "NIGHT", "ALL_DAY"] as const;
export { COMBO_TYPES, OPTION_STRATEGIES, ORDER_STATUSES, ORDER_TYPES, SIDES, TIME_IN_FORCE };

const legIn = z.object({
  instrument_type: z.enum(INSTRUMENT_TYPES),
  market: z.enum(MARKETS),
  symbol: z.string().min(1),
  side: z.enum(SIDES),
  quantity: decimalIn,
  strike_price: decimalIn.optional(),
  option_expire_date: dateIn.optional(),
  option_type: z.enum(["CALL", "PUT"]).optional(),
});

/** An order's prices as a place or a replace request sets them: limit, stop, and the trailing stop's step and offset. */
const priceFieldsIn = {
  limit_price: decimalIn.optional(),
  stop_price: decimalIn.optional(),
  trailing_type: z.enum(["AMOUNT", "PERCENTAGE"]).optional(),
  trailing_stop_step: decimalIn.optional(),
  trailing_limit_price_offset: decimalIn.optional(),
  trigger_price_type: z.enum(["PRICE", "PRICE_BID", "PRICE_ASK"]).optional(),
};

export const newOrderIn = z.object({
  combo_type: z.enum(COMBO_TYPES).default("NORMAL"),
  client_order_id: clientId,
  instrument_type: z.enum(INSTRUMENT_TYPES),
  market: z.enum(MARKETS),
  symbol: z.string().min(1),
  order_type: z.enum(ORDER_TYPES),
  entrust_type: z.enum(ENTRUST_TYPES).default("QTY"),
  support_trading_session: z.enum(TRADING_SESSIONS).optional(),
  time_in_force: z.enum(TIME_IN_FORCE),
  expire_date: dateIn.optional(),
  side: z.enum(SIDES),
  quantity: decimalIn.optional(),
  total_cash_amount: decimalIn.optional(),
  ...priceFieldsIn,
  sender_sub_id: z.string().optional(),
  no_party_ids: z.array(z.object({ party_id: z.string(), party_id_source: z.string(), party_role: z.string() })).optional(),
  option_strategy: z.enum(OPTION_STRATEGIES).optional(),
  position_intent: z.enum(["BUY_TO_OPEN", "BUY_TO_CLOSE", "SELL_TO_OPEN", "SELL_TO_CLOSE"]).optional(),
  legs: z.array(legIn).optional(),
});

export const placeOrderIn = z.object({
  account_id: z.string().min(1),
  client_combo_order_id: clientId.optional(),
  new_orders: z.array(newOrderIn).min(1),
});
/** Preview requires the trading session (facts §5.1). */
export const previewOrderIn = placeOrderIn.extend({
  new_orders: z.array(newOrderIn.extend({ support_trading_session: z.enum(TRADING_SESSIONS) })).min(1),
});

export const replaceOrderIn = z.object({
  account_id: z.string().min(1),
  client_combo_order_id: clientId.optional(),
  modify_orders: z
    .array(
      z.object({
        combo_type: z.enum(COMBO_TYPES),
        client_order_id: clientId,
        time_in_force: z.enum(TIME_IN_FORCE).optional(),
        /** Required by GTD (and only allowed with it). */
        expire_date: dateIn.optional(),
        quantity: decimalIn.optional(),
        ...priceFieldsIn,
        legs: z.array(z.object({ id: z.string(), quantity: decimalIn })).optional(),
      }),
    )
    .min(1),
});

export const cancelOrderIn = z.object({ account_id: z.string().min(1), client_order_id: clientId });

export const orderAck = z.object({ client_order_id: z.string(), order_id: opt(z.string()) });
/** Place / replace may answer one ack or a list (combo orders); both become a list. */
export const orderAcks = z.union([z.array(orderAck), orderAck.transform((a) => [a])]);

const commission = z.object({ actual_commission: opt(decimalOut), receivable_commission: opt(decimalOut) });
const fee = z.object({ type: opt(z.string()), actual_value: opt(decimalOut), receivable_value: opt(decimalOut) });

export const orderPreview = z.object({
  estimated_cost: opt(decimalOut),
  estimated_transaction_fee: opt(decimalOut),
  estimated_transaction_fee_detail: opt(z.object({ commission: opt(commission), fees: opt(z.array(fee)) })),
});

const legOut = z.object({
  id: opt(z.string()),
  symbol: opt(z.string()),
  side: opt(tolerantEnum(SIDES)),
  quantity: opt(decimalOut),
  option_type: opt(z.string()),
  option_expire_date: opt(z.string()),
  strike_price: opt(decimalOut),
  instrument_type: opt(z.string()),
  market: opt(z.string()),
});

/** One order record. Deprecated `place_time` / `fill_time` (epoch ms) are read only to fill `placed_at` / `filled_at` when the newer `_at` field is absent. */
export const order = z
  .object({
    client_order_id: z.string(),
    order_id: opt(z.string()),
    combo_type: opt(tolerantEnum(COMBO_TYPES)),
    symbol: opt(z.string()),
    market: opt(z.string()),
    side: opt(tolerantEnum(SIDES)),
    status: tolerantEnum(ORDER_STATUSES),
    order_type: opt(tolerantEnum(ORDER_TYPES)),
    instrument_type: opt(tolerantEnum(INSTRUMENT_TYPES)),
    support_trading_session: opt(tolerantEnum(TRADING_SESSIONS)),
    time_in_force: opt(tolerantEnum(TIME_IN_FORCE)),
    expire_date: opt(z.string()),
    entrust_type: opt(tolerantEnum(ENTRUST_TYPES)),
    total_quantity: opt(decimalOut),
    filled_quantity: opt(decimalOut),
    filled_price: opt(decimalOut),
    limit_price: opt(decimalOut),
    stop_price: opt(decimalOut),
    total_cash_amount: opt(decimalOut),
    trailing_type: opt(z.string()),
    trailing_stop_step: opt(decimalOut),
    trailing_limit_price_offset: opt(decimalOut),
    trigger_price_type: opt(z.string()),
    place_time: opt(epochMsTimestamp),
    place_time_at: opt(isoTimestamp),
    filled_time: opt(epochMsTimestamp),
    filled_time_at: opt(isoTimestamp),
    fill_time: opt(epochMsTimestamp),
    commission: opt(commission),
    fees: opt(z.array(fee)),
    option_strategy: opt(tolerantEnum(OPTION_STRATEGIES)),
    legs: opt(z.array(legOut)),
    reason: opt(z.string()),
  })
  .transform(({ place_time, place_time_at, filled_time, filled_time_at, fill_time, ...rest }) => ({
    ...rest,
    placed_at: place_time_at ?? place_time,
    filled_at: filled_time_at ?? filled_time ?? fill_time,
  }));

export const orderGroup = z.object({
  client_order_id: z.string(),
  client_combo_order_id: opt(z.string()),
  combo_type: opt(tolerantEnum(COMBO_TYPES)),
  orders: z.array(order),
});

export const getOrderIn = z.object({ account_id: z.string().min(1), client_order_id: clientId });
export const listOrdersIn = pageIn.extend({
  account_id: z.string().min(1),
  start_date: dateIn.optional(),
  end_date: dateIn.optional(),
});
export const listOpenOrdersIn = pageIn.extend({ account_id: z.string().min(1) });
export const listOrderExecutionsIn = pageIn.extend({
  account_id: z.string().min(1),
  client_order_id: clientId.optional(),
  start_date: dateIn.optional(),
  end_date: dateIn.optional(),
});

/** Executions are not published by the upstream; `execution_id` (or a plain `id`) identifies one. */
export const execution = z
  .object({
    execution_id: opt(z.string()),
    id: opt(z.string()),
    client_order_id: opt(z.string()),
    order_id: opt(z.string()),
    symbol: opt(z.string()),
    side: opt(tolerantEnum(SIDES)),
    order_type: opt(tolerantEnum(ORDER_TYPES)),
    status: opt(tolerantEnum(["FILLED", "PARTIAL_FILLED"] as const)),
    filled_quantity: opt(decimalOut),
    filled_price: opt(decimalOut),
    filled_time_at: opt(isoTimestamp),
    commission: opt(commission),
    fees: opt(z.array(fee)),
  })
  .transform(({ id, ...e }) => ({ ...e, execution_id: e.execution_id ?? id ?? "" }));

export type PlaceOrderInput = z.input<typeof placeOrderIn>;
export type PreviewOrderInput = z.input<typeof previewOrderIn>;
export type ReplaceOrderInput = z.input<typeof replaceOrderIn>;
export type CancelOrderInput = z.input<typeof cancelOrderIn>;
export type Order = z.output<typeof order>;
export type OrderGroup = z.output<typeof orderGroup>;
export type ListOrdersInput = z.input<typeof listOrdersIn>;
export type ListOpenOrdersInput = z.input<typeof listOpenOrdersIn>;
export type ListOrderExecutionsInput = z.input<typeof listOrderExecutionsIn>;
export type Execution = z.output<typeof execution>;
