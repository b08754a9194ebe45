"use server";
import "server-only";
import { instantFunding } from "@/server/movements/instant-funding";
import { movementAction } from "@/server/movements/action";
import { defineAction } from "@/server/action-kit/define-action";

/** A deposit or withdrawal at a virtual account, sent with the client_request_id its form made. */
export const createInstantFundingAction = defineAction(movementAction(instantFunding));
