"use server";
import "server-only";
import { placeTicketSchema } from "@/lib/schemas/order-ticket";
import { previewTicket } from "@/server/orders/ticket-orders";
import { defineAction } from "@/server/action-kit/define-action";

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
