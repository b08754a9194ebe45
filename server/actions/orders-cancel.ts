"use server";
import "server-only";
import { cancelOrderSchema } from "@/lib/schemas/order-cancel";
import { findOrder } from "@/server/orders/detail";
import { lastOrderEventSeq, requireOpenUpstream } from "@/server/orders/modify";
import { defineAction } from "./safe-action";

/**
 * Cancels a customer's order, with a reason (the audited input carries it). The order's state is read upstream
 * first; an order no longer open is refused with nothing sent. Never retried: the client does not retry cancels.
 * The outcome arrives later as CANCEL_SUCCESS / CANCEL_FAILED; the page waits for the first after `sinceSeq`.
 */
export const cancelOrderAction = defineAction({
  name: "orders.cancel",
  permission: "orders:modify",
  input: cancelOrderSchema,
  async run(input, ctx) {
    const order = await findOrder(ctx.db.engine, input.orderId);
    ctx.audit.target = `order:${order.accountId}:${order.clientOrderId}`;
    const { live } = await requireOpenUpstream(ctx.broker, order, "cancelled");
    const sinceSeq = await lastOrderEventSeq(ctx.db.engine, order);
    await ctx.broker.cancelOrder({ account_id: order.accountId, client_order_id: order.clientOrderId });
    return { sinceSeq, statusBefore: live.status };
  },
});
