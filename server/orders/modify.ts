import "server-only";
import { selectLastOrderEventSeq } from "./queries/detail";
import { COMBO_TYPES, OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import { enumLabel } from "@/lib/enums";
import { AppError } from "@/lib/errors";
import type { OrderFull } from "@/lib/schemas/order-detail";
import type { BrokerClient } from "@/server/broker/client";
import type { Order } from "@/server/broker/schemas/orders";
import type { ActionContext } from "@/server/action-kit/define-action";
import type { Queryable } from "@/server/db/engine";
import { findOrder } from "./detail";

/**
 * What replace and cancel do before sending anything: read the order's current state upstream (one detail call)
 * and refuse, with nothing sent, when it is no longer open — the read model may be a moment behind. The answer
 * also gives the combo type the replace must carry.
 */
export async function requireOpenUpstream(
  client: BrokerClient,
  order: OrderFull,
  verb: "replaced" | "cancelled",
): Promise<{ live: Order; comboType: (typeof COMBO_TYPES)[number] }> {
  const group = await client.getOrder({ account_id: order.accountId, client_order_id: order.clientOrderId });
  const live = group.orders.find((o) => o.client_order_id === order.clientOrderId);
  if (!live)
    throw new AppError("ORDER_NOT_FOUND", "order missing from its detail answer", "The broker does not know this order. Nothing was sent.");
  if (!(OPEN_ORDER_STATUSES as readonly string[]).includes(live.status)) {
    const status = enumLabel([live.status], live.status);
    throw new AppError(
      "ORDER_NOT_OPEN",
      `order is ${live.status} upstream`,
      `This order is ${status} at the broker, so it can no longer be ${verb}. Nothing was sent.`,
    );
  }
  const combo = live.combo_type ?? group.combo_type ?? order.comboType ?? "NORMAL";
  if (!(COMBO_TYPES as readonly string[]).includes(combo)) {
    throw new AppError(
      "UNKNOWN_COMBO_TYPE",
      `combo type ${combo}`,
      `This order's combo type (${combo}) is unknown to the desk. Nothing was sent.`,
    );
  }
  return { live, comboType: combo as (typeof COMBO_TYPES)[number] };
}

/** The last change the desk knows of the order: its outcome is the first modify or cancel scene after it. */
export async function lastOrderEventSeq(q: Queryable, order: OrderFull): Promise<number> {
  return selectLastOrderEventSeq(q, order.accountId, order.clientOrderId);
}

/**
 * The common path of replace and cancel inside their action: the order from the read model (the audit entry's
 * target), its state upstream (refused when no longer open), the seq its outcome will follow, then the one call.
 */
export async function changeOpenOrder(
  ctx: Pick<ActionContext, "db" | "audit" | "broker">,
  orderId: string,
  verb: "replaced" | "cancelled",
  send: (order: OrderFull, comboType: (typeof COMBO_TYPES)[number], live: Order) => Promise<unknown>,
): Promise<{ sinceSeq: number; statusBefore: string }> {
  const order = await findOrder(ctx.db.engine, orderId);
  ctx.audit.target = `order:${order.accountId}:${order.clientOrderId}`;
  const { live, comboType } = await requireOpenUpstream(ctx.broker, order, verb);
  const sinceSeq = await lastOrderEventSeq(ctx.db.engine, order);
  await send(order, comboType, live);
  return { sinceSeq, statusBefore: live.status };
}
