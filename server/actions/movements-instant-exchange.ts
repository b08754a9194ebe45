"use server";
import "server-only";
import { instantExchange } from "@/server/movements/instant-exchange";
import { movementAction } from "@/server/movements/action";
import { defineAction } from "@/server/action-kit/define-action";

/** An instant exchange at a virtual account for the quoted to_amount, sent with the client_request_id its form made. */
export const createInstantExchangeAction = defineAction(movementAction(instantExchange));
