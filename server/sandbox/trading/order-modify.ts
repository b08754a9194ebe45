import "server-only";
import type { Sandbox } from "../context";
import { ApiError, business, illegal } from "../errors";
import { Decimal, parsePositive } from "../money";
import { emit, type OutboxEvent } from "./events/outbox";
import { adjustHeld, hold } from "./funds";
import { afterExecution, endOrder } from "./lifecycle";
import { runMatching } from "./matching";
import { orderAccount } from "./order-write";
import { checkUsStockTick, PRICE_FIELDS, TRAILING_TYPES, TRIGGER_PRICE_TYPES } from "./order-spec";
import { OPEN, requireOrder, updateOrder, type OrderRow } from "./order-store";
import { estimateHold } from "./pricing";
import { trading } from "./state";
import { tradeEvent } from "./trade-events";

/**
 * Replace and cancel. Only open orders (PENDING, SUBMITTED, PARTIAL_FILLED) change; anything else is 417
 * ORDER_NOT_MODIFIABLE / ORDER_NOT_CANCELLABLE plus a MODIFY_FAILED / CANCEL_FAILED trade event. combo_type is
 * required on the Broker API's replace (the spec's modify_orders field) and optional on the Trading API's (the
 * official SDKs' replace samples send none); given, it must be the order's. A replace must change something (417
 * NOTHING_TO_MODIFY), and a quantity it names must be a number (null or "" is refused, not read as "unchanged").
 * A replaced BUY's hold is recomputed (and must still be covered).
 */
const MODIFIABLE = ["time_in_force", "quantity", ...PRICE_FIELDS, "expire_date"] as const;
const DECIMALS: readonly string[] = ["quantity", "limit_price", "stop_price", "trailing_stop_step", "trailing_limit_price_offset"];

/** Whether a parsed replace field differs from the order's value (decimals by value: "3" is "3.00"). */
function differs(o: OrderRow, k: (typeof MODIFIABLE)[number], v: string): boolean {
  const was = o[k];
  if (was === null || was === undefined) return true;
  return DECIMALS.includes(k) ? !new Decimal(v).eq(was) : v !== String(was);
}

async function failed(sb: Sandbox, o: OrderRow, scene: "MODIFY_FAILED" | "CANCEL_FAILED", reason: string, at: Date) {
  await sb.engine.transaction((tx) => emit(tx, [tradeEvent(o, scene, at, undefined, reason)], at));
  trading(sb).bus.emit("events");
}

export async function replaceOrders(sb: Sandbox, body: Record<string, unknown>, family: "broker" | "trading" = "broker") {
  const t = trading(sb);
  const at = t.now();
  await t.market.load(sb.engine, at);
  const account = await orderAccount(sb.engine, body.account_id);
  const list = body.modify_orders;
  if (!Array.isArray(list) || !list.length) throw illegal("modify_orders must be a non-empty array.");
  const acks: { client_order_id: string; order_id: string }[] = [];
  const touched: string[] = [];
  for (const [i, m] of (list as Record<string, unknown>[]).entries()) {
    const combo = m.combo_type === undefined || m.combo_type === null || m.combo_type === "" ? undefined : m.combo_type;
    if (combo === undefined ? family === "broker" : typeof combo !== "string") throw illegal(`modify_orders[${i}].combo_type is required.`);
    let current: OrderRow | undefined;
    try {
      await sb.engine.transaction(async (tx) => {
        const o = await requireOrder(tx, account.account_id, m.client_order_id, true);
        current = o;
        if (combo !== undefined && o.combo_type !== combo)
          throw illegal(`modify_orders[${i}].combo_type must be ${o.combo_type}, the order's combo type.`);
        if (!OPEN.includes(o.status))
          throw business("ORDER_NOT_MODIFIABLE", `Order ${o.client_order_id} is ${o.status} and can no longer be modified.`);
        if (m.quantity === null || m.quantity === "")
          throw illegal(`modify_orders[${i}].quantity must be a positive number; leave it out to keep the order's quantity.`);
        const patch: Record<string, unknown> = {};
        let changed = false;
        for (const k of MODIFIABLE) {
          if (m[k] === undefined || m[k] === null || m[k] === "") continue;
          const v = DECIMALS.includes(k) ? parsePositive(m[k], `modify_orders[${i}].${k}`).toFixed() : String(m[k]);
          patch[k] = v;
          changed ||= differs(o, k, v);
        }
        if (!changed) {
          throw business(
            "NOTHING_TO_MODIFY",
            `modify_orders[${i}] changes nothing on order ${o.client_order_id}: give a new quantity, price, time in force or expiry date.`,
          );
        }
        if (patch.time_in_force && !["DAY", "GTC", "GTD"].includes(patch.time_in_force as string))
          throw illegal(`modify_orders[${i}].time_in_force must be DAY, GTC or GTD.`);
        if (patch.trailing_type && !(TRAILING_TYPES as readonly string[]).includes(patch.trailing_type as string)) {
          throw illegal(`modify_orders[${i}].trailing_type must be one of ${TRAILING_TYPES.join(", ")}.`);
        }
        if (patch.trigger_price_type && !(TRIGGER_PRICE_TYPES as readonly string[]).includes(patch.trigger_price_type as string)) {
          throw illegal(`modify_orders[${i}].trigger_price_type must be one of ${TRIGGER_PRICE_TYPES.join(", ")}.`);
        }
        if (o.market === "US" && o.instrument_type === "EQUITY") {
          checkUsStockTick((patch.limit_price as string | undefined) ?? null, `modify_orders[${i}].limit_price`);
          checkUsStockTick((patch.stop_price as string | undefined) ?? null, `modify_orders[${i}].stop_price`);
        }
        const tif = (patch.time_in_force ?? o.time_in_force) as string;
        const expire = (patch.expire_date ?? (tif === "GTD" ? o.expire_date : null)) as string | null;
        if (tif === "GTD" && !expire) throw illegal(`modify_orders[${i}].expire_date is required when time_in_force is GTD.`);
        if (tif !== "GTD") patch.expire_date = null;
        else if (patch.expire_date && !/^\d{4}-\d{2}-\d{2}$/.test(patch.expire_date as string))
          throw illegal(`modify_orders[${i}].expire_date must be yyyy-MM-dd.`);
        if (patch.quantity && new Decimal(patch.quantity as string).lte(o.filled_quantity)) {
          throw business("INVALID_QUANTITY", `quantity must exceed the ${o.filled_quantity} already filled.`);
        }
        if (o.market !== "US" && patch.quantity && o.order_type !== "ODD_LOT_LIMIT") {
          const lot = t.market.get(o.instrument_type, o.market, o.symbol)?.lot ?? new Decimal(1);
          if (!new Decimal(patch.quantity as string).mod(lot).isZero())
            throw business("INVALID_LOT_SIZE", `quantity must be a multiple of the lot size ${lot.toString()}.`);
        }
        if (Array.isArray(m.legs) && o.legs) {
          // Leg ratios are fixed by the strategy; leg quantities may only scale with the order's quantity.
          patch.legs = o.legs;
        }
        const next: OrderRow = { ...o, ...(patch as Partial<OrderRow>), triggered: patch.stop_price ? false : o.triggered };
        if (o.status !== "PENDING") {
          await adjustHeld(tx, o.account_id, o.currency, new Decimal(o.held_amount).neg(), at);
          const need = await estimateHold(tx, t, next, account.account_type);
          await hold(tx, account, o.currency, need, at);
          next.held_amount = need.toFixed();
          patch.held_amount = next.held_amount;
        }
        if (patch.stop_price) patch.triggered = false;
        await updateOrder(tx, o.order_id, patch, at);
        await emit(tx, [tradeEvent(next, "MODIFY_SUCCESS", at)], at);
        acks.push({ client_order_id: o.client_order_id, order_id: o.order_id });
        if (o.status !== "PENDING") touched.push(o.order_id);
      });
    } catch (e) {
      if (current && e instanceof ApiError && e.status === 417) await failed(sb, current, "MODIFY_FAILED", e.message, at);
      throw e;
    }
  }
  await runMatching(sb, touched);
  return acks.length === 1 ? acks[0] : acks;
}

export async function cancelOrder(sb: Sandbox, body: Record<string, unknown>) {
  const t = trading(sb);
  const at = t.now();
  const account = await orderAccount(sb.engine, body.account_id);
  let current: OrderRow | undefined;
  const out: OutboxEvent[] = [];
  const activated: string[] = [];
  try {
    const o = await sb.engine.transaction(async (tx) => {
      const row = await requireOrder(tx, account.account_id, body.client_order_id, true);
      current = row;
      if (!OPEN.includes(row.status))
        throw business("ORDER_NOT_CANCELLABLE", `Order ${row.client_order_id} is ${row.status} and can no longer be cancelled.`);
      // A MASTER cancelled after a partial fill still protects what it bought: its children start for that quantity.
      if (row.combo_type === "MASTER" && new Decimal(row.filled_quantity).gt(0))
        activated.push(...(await afterExecution(tx, t, row, true, at, out)));
      await endOrder(tx, row, "CANCELLED", "Cancelled at the client's request.", at, out);
      await emit(tx, out, at);
      return row;
    });
    t.bus.emit("events");
    if (activated.length) await runMatching(sb, activated);
    return { client_order_id: o.client_order_id, order_id: o.order_id };
  } catch (e) {
    if (current && e instanceof ApiError && e.status === 417) await failed(sb, current, "CANCEL_FAILED", e.message, at);
    throw e;
  }
}
