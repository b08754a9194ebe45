"use server";
import "server-only";
import { orderCheckSchema } from "@/lib/schemas/order-check";
import { defineAction } from "@/server/action-kit/define-action";
import { requestOrderCheck } from "@/server/orders/sweep";

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
