"use server";
import "server-only";
import { orderLookupSchema } from "@/lib/schemas/order-lookup";
import { defineAction } from "@/server/action-kit/define-action";
import { lookUpOrder } from "@/server/orders/lookup";

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
