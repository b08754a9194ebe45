"use server";
import "server-only";
import { AppError } from "@/lib/errors";
import { replaceOrderSchema } from "@/lib/schemas/order-replace";
import { changeOpenOrder } from "@/server/orders/modify";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * Replaces a customer's order (quantity, limit or stop price, time in force and expiry), with a reason in the
 * audited input. Reads the order upstream first and refuses when it is no longer open (nothing sent); sends
 * `combo_type` as the upstream requires; never retried. The outcome arrives as MODIFY_SUCCESS / MODIFY_FAILED.
 */
export const replaceOrderAction = defineAction({
  name: "orders.replace",
  permission: "orders:modify",
  input: replaceOrderSchema,
  async run(input, ctx) {
    const change = {
      quantity: input.quantity,
      limit_price: input.limitPrice,
      stop_price: input.stopPrice,
      time_in_force: input.timeInForce,
      expire_date: input.expireDate,
    };
    if (Object.values(change).every((v) => v === undefined)) {
      throw new AppError("NOTHING_TO_CHANGE", "replace without a change", "Change at least one value. Nothing was sent.");
    }
    return changeOpenOrder(ctx, input.orderId, "replaced", (order, comboType) =>
      ctx.broker.replaceOrder({
        account_id: order.accountId,
        modify_orders: [{ combo_type: comboType, client_order_id: order.clientOrderId, ...change }],
      }),
    );
  },
});
