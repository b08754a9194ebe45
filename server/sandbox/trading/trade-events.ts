import "server-only";
import { Decimal, price, qty } from "../money";
import type { OutboxEvent } from "./events/outbox";
import type { FeeLine } from "./fees";
import { multiplierOf, type OrderRow } from "./order-store";

/** TRADE event payload (facts §4.1) with the spec's commission and fee fields. */
export type Scene = "FILLED" | "FINAL_FILLED" | "PLACE_FAILED" | "MODIFY_SUCCESS" | "MODIFY_FAILED" | "CANCEL_SUCCESS" | "CANCEL_FAILED";

const wireTime = (d: Date) => d.toISOString().replace("Z", "+0000");

export function tradeEvent(
  o: OrderRow,
  scene: Scene,
  at: Date,
  fill?: { quantity: Decimal; price: Decimal; commission: Decimal; receivable: Decimal; fees: FeeLine[] },
  reason?: string,
): OutboxEvent {
  const filled = new Decimal(o.filled_quantity);
  return {
    event_type: "TRADE",
    account_id: o.account_id,
    payload: {
      biz_type: "TRADE",
      scene_type: scene,
      request_id: `${o.order_id}:${scene}:${at.getTime()}`,
      account_id: o.account_id,
      order_id: o.order_id,
      client_order_id: o.client_order_id,
      combo_type: o.combo_type,
      instrument_id: (o.extra?._instrument_id as string | undefined) ?? o.legs?.[0]?.instrument_id,
      order_status: o.status,
      symbol: o.symbol,
      category: o.instrument_type === "OPTION" ? "US_OPTION" : `${o.market}_STOCK`,
      side: o.side,
      order_type: o.order_type,
      qty: o.quantity == null ? undefined : qty(o.quantity),
      filled_qty: qty(fill?.quantity ?? filled),
      filled_price: fill
        ? price(fill.price)
        : filled.gt(0)
          ? price(new Decimal(o.filled_value).div(filled).div(multiplierOf(o)).toDecimalPlaces(4))
          : undefined,
      filled_time: fill ? wireTime(at) : undefined,
      actual_commission: price(fill?.commission ?? o.commission),
      receivable_commission: price(fill?.receivable ?? o.receivable_commission),
      fees: fill?.fees ?? o.fees,
      ...((reason ?? o.reason) ? { reason: reason ?? o.reason } : {}),
    },
  };
}
