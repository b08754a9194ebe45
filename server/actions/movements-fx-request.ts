"use server";
import "server-only";
import { fxRequest } from "@/server/movements/fx-request";
import { movementAction } from "@/server/movements/action";
import { defineAction } from "@/server/action-kit/define-action";

/** An FX request at the master account, sent with the client_request_id its form made. */
export const createFxRequestAction = defineAction(movementAction(fxRequest));
