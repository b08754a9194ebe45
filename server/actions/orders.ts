"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { optionExerciseSchema } from "@/lib/schemas/option-exercise";
import { orderCheckSchema } from "@/lib/schemas/order-check";
import { orderLookupSchema } from "@/lib/schemas/order-lookup";
import { placeTicketSchema } from "@/lib/schemas/order-ticket";
import type { TicketPlaced } from "@/lib/schemas/order-ticket-data";
import { defineAction } from "@/server/action-kit/define-action";
import { toActionError } from "@/server/action-kit/upstream-error";
import { recordDeskOrder } from "@/server/books/desk";
import { logger } from "@/server/log";
import { cancelOrder, replaceOrder } from "@/server/orders/actions";
import { lookUpOrder } from "@/server/orders/lookup";
import { outOfMoneyExercise } from "@/server/orders/pre-trade";
import { requestOrderCheck } from "@/server/orders/sweep";
import { enforcePreTradeChecks, previewTicket, ticketRequest } from "@/server/orders/ticket-orders";
import { orderActionError } from "@/server/orders/upstream-errors";

/** Cancels a customer's order, with a reason (server/orders/actions.ts). */
export const cancelOrderAction = defineAction(cancelOrder);

/** "Check now": the account's open orders read from the upstream next, whenever they were last read. */
export const checkAccountOrders = defineAction({
  name: "orders.check",
  permission: "orders:read",
  input: orderCheckSchema,
  async run(input, { db, audit }) {
    const check = await requestOrderCheck(db.engine, input.account, 0);
    audit.target = `account:${check.accountId}`;
    return check;
  },
});

/**
 * Exercises held option contracts, or records "do not exercise" (keeps them from automatic exercise at expiry).
 * The button made its client_request_id when it was shown: a retry is the same request upstream.
 */
export const exerciseOption = defineAction({
  name: "orders.exercise",
  permission: "orders:place",
  input: optionExerciseSchema,
  async run(input, { audit, broker }) {
    audit.target = `account:${input.account_id}`;
    if (input.exercise_type === "EXERCISE" && !input.confirm_out_of_money) {
      const out = await outOfMoneyExercise(input.symbol, broker);
      if (out) throw new AppError("EXERCISE_OUT_OF_THE_MONEY", out, `${out} Confirm to exercise it anyway.`);
    }
    const { confirm_out_of_money: _confirmed, ...request } = input;
    try {
      const r = await broker.exerciseOption(request);
      revalidatePath(`/accounts/${input.account_id}`);
      return { status: r.status ?? "", reason: r.reason ?? "", exercise_id: r.exercise_id ?? "" };
    } catch (error) {
      throw toActionError(error, {
        fields: { codes: { INSUFFICIENT_POSITION: { field: "quantity" } }, field: (p) => (p === "quantity" ? "quantity" : undefined) },
        idempotent: true,
      });
    }
  },
});

/** "Find an order": by id or client order id for the account the customer names; the upstream when the books lack it. */
export const findOrderAtUpstream = defineAction({
  name: "orders.lookup",
  permission: "orders:read",
  input: orderLookupSchema,
  async run(input, { db, broker, audit }) {
    const found = await lookUpOrder({ engine: db.engine, client: broker }, input);
    audit.target = `account:${found.accountId}`;
    return found;
  },
});

/**
 * Places a ticket. Its client_order_id was made when the ticket was filled in and goes again on every retry with
 * the very same body (the combo members' ids derive from it): the upstream answers a repeat with the first acks
 * and places nothing, so a double click or a retry after a timeout is one order. The orders are written to the
 * desk's read model at once (with who placed them); the upstream's events move them on.
 */
export const placeOrderTicket = defineAction({
  name: "orders.place",
  permission: "orders:place",
  input: placeTicketSchema,
  async run(input, { audit, broker, db, staff }): Promise<TicketPlaced> {
    const { request, roles } = ticketRequest(input);
    audit.target = `order:${input.account_id}:${input.client_order_id}`;
    await enforcePreTradeChecks(input, broker);
    let acks;
    try {
      acks = await broker.placeOrder(request);
    } catch (error) {
      throw orderActionError(error, roles);
    }
    const placedAt = new Date().toISOString();
    for (const o of request.new_orders) {
      const ack = acks.find((a) => a.client_order_id === o.client_order_id);
      const waits =
        ["STOP_PROFIT", "STOP_LOSS"].includes(o.combo_type) || (["OTO", "OTOCO"].includes(o.combo_type) && o !== request.new_orders[0]);
      try {
        await recordDeskOrder(db.engine, {
          accountId: input.account_id,
          clientOrderId: o.client_order_id,
          submittedBy: staff.email,
          order: {
            order_id: ack?.order_id,
            combo_type: o.combo_type,
            symbol: o.symbol,
            market: o.market,
            instrument_type: o.instrument_type,
            side: o.side,
            order_type: o.order_type,
            time_in_force: o.time_in_force,
            expire_date: o.expire_date,
            entrust_type: o.entrust_type,
            support_trading_session: o.support_trading_session,
            total_quantity: o.quantity,
            total_cash_amount: o.total_cash_amount,
            limit_price: o.limit_price,
            stop_price: o.stop_price,
            option_strategy: o.option_strategy,
            legs: o.legs,
            status: waits ? "PENDING" : "SUBMITTED",
            placed_at: placedAt,
          },
        });
      } catch (error) {
        // The order is placed: the upstream's events bring it into the read model even if this write failed.
        logger.warn({ err: error, clientOrderId: o.client_order_id }, "desk order record failed");
      }
    }
    return {
      account_id: input.account_id,
      client_order_id: input.client_order_id,
      orders: request.new_orders.map((o) => ({
        client_order_id: o.client_order_id,
        order_id: acks.find((a) => a.client_order_id === o.client_order_id)?.order_id,
        combo_type: o.combo_type ?? "NORMAL",
        side: o.side,
        order_type: o.order_type,
      })),
    };
  },
});

/** Previews a ticket: the upstream's estimated cost, commission and fees, and the buying-power effect. Places nothing. */
export const previewOrderTicket = defineAction({
  name: "orders.preview",
  permission: "orders:place",
  input: placeTicketSchema,
  async run(input, { audit, broker }) {
    audit.target = `account:${input.account_id}`;
    return previewTicket(input, broker);
  },
});

/** Replaces a customer's order, with a reason (server/orders/actions.ts). */
export const replaceOrderAction = defineAction(replaceOrder);
