"use server";
import "server-only";
import { fxRequest } from "@/server/movements/fx-request";
import { approvalPolicy } from "@/server/approvals/policy";
import { defineAction } from "@/server/action-kit/define-action";

/** An FX request at the master account, sent with the client_request_id its form made. */
export const createFxRequestAction = defineAction({
  name: fxRequest.action,
  permission: "movements:write",
  input: fxRequest.schema,
  approval: approvalPolicy(fxRequest),
  run: (request, ctx) => fxRequest.send(request, ctx),
});
