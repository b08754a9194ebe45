"use server";
import "server-only";
import { cancelOrderSchema } from "@/lib/schemas/order-cancel";
import { changeOpenOrder } from "@/server/orders/modify";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * Cancels a customer's order, with a reason (the audited input carries it). The order's state is read upstream
 * first; an order no longer open is refused with nothing sent. Never retried: the client does not retry cancels.
 * The outcome arrives later as CANCEL_SUCCESS / CANCEL_FAILED; the page waits for the first after `sinceSeq`.
 */
export const cancelOrderAction = defineAction({
  name: "orders.cancel",
  permission: "orders:modify",
  input: cancelOrderSchema,
  run: (input, ctx) =>
    changeOpenOrder(ctx, input.orderId, "cancelled", (order) =>
      ctx.broker.cancelOrder({ account_id: order.accountId, client_order_id: order.clientOrderId }),
    ),
});
