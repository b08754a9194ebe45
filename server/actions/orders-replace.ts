"use server";
import "server-only";
import { replaceOrder } from "@/server/orders/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** Replaces a customer's order, with a reason (server/orders/actions.ts). */
export const replaceOrderAction = defineAction(replaceOrder);
