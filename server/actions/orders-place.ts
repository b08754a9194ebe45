"use server";
import "server-only";
import { placeTicketSchema } from "@/lib/schemas/order-ticket";
import type { TicketPlaced } from "@/lib/schemas/order-ticket-data";
import { recordDeskOrder } from "@/server/books/desk";
import { logger } from "@/server/log";
import { enforcePreTradeChecks, ticketRequest } from "@/server/orders/ticket-orders";
import { orderActionError } from "@/server/orders/upstream-errors";
import { defineAction } from "@/server/action-kit/define-action";

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
