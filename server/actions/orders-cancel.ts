"use server";
import "server-only";
import { cancelOrder } from "@/server/orders/actions";
import { defineAction } from "@/server/action-kit/define-action";

/** Cancels a customer's order, with a reason (server/orders/actions.ts). */
export const cancelOrderAction = defineAction(cancelOrder);
