import "server-only";
import { AppError } from "@/lib/errors";
import { cancelOrderSchema } from "@/lib/schemas/order-cancel";
import { replaceOrderSchema } from "@/lib/schemas/order-replace";
import type { ActionDefinition } from "@/server/action-kit/define-action";
import { changeOpenOrder } from "./modify";
import { compareDecimal } from "@/lib/money";
import type { Order } from "@/server/broker/schemas/orders";

type Change = { quantity?: string; limit_price?: string; stop_price?: string; time_in_force?: string; expire_date?: string };

/** Every value given equals the order's own (prices and quantities by value: "300" is "300.00"). */
function sameTerms(change: Change, live: Order): boolean {
  const same = (given: string | undefined, current: string | undefined, decimal: boolean) =>
    given === undefined || (current !== undefined && (decimal ? compareDecimal(given, current) === 0 : given === current));
  return (
    same(change.quantity, live.total_quantity, true) &&
    same(change.limit_price, live.limit_price, true) &&
    same(change.stop_price, live.stop_price, true) &&
    same(change.time_in_force, live.time_in_force, false) &&
    same(change.expire_date, live.expire_date?.slice(0, 10), false)
  );
}

/**
 * Support's two changes to a customer's order, each one definition that the pages' server action and the
 * assistant channels' tool both run (server/action-kit/define-action.ts).
 */

/**
 * Cancels a customer's order, with a reason (the audited input carries it). The order's state is read upstream
 * first; an order no longer open is refused with nothing sent. Never retried: the client does not retry cancels.
 * The outcome arrives later as CANCEL_SUCCESS / CANCEL_FAILED; the page waits for the first after `sinceSeq`.
 */
export const cancelOrder = {
  name: "orders.cancel",
  permission: "orders:modify",
  input: cancelOrderSchema,
  run: (input, ctx) =>
    changeOpenOrder(ctx, input.orderId, "cancelled", (order) =>
      ctx.broker.cancelOrder({ account_id: order.accountId, client_order_id: order.clientOrderId }),
    ),
} satisfies ActionDefinition<typeof cancelOrderSchema, unknown>;

/**
 * Replaces a customer's order (quantity, limit or stop price, time in force and expiry), with a reason in the
 * audited input. Reads the order upstream first and refuses when it is no longer open (nothing sent); sends
 * `combo_type` as the upstream requires; never retried. The outcome arrives as MODIFY_SUCCESS / MODIFY_FAILED.
 */
export const replaceOrder = {
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
    return changeOpenOrder(ctx, input.orderId, "replaced", (order, comboType, live) => {
      // the order as the broker holds it now: a replace that changes nothing is refused here, not sent
      if (sameTerms(change, live)) {
        throw new AppError(
          "NOTHING_TO_CHANGE",
          "replace with the order's current values",
          "These are the order's current values: change at least one. Nothing was sent.",
        );
      }
      return ctx.broker.replaceOrder({
        account_id: order.accountId,
        modify_orders: [{ combo_type: comboType, client_order_id: order.clientOrderId, ...change }],
      });
    });
  },
} satisfies ActionDefinition<typeof replaceOrderSchema, unknown>;
