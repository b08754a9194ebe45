"use server";
import "server-only";
import { instantFunding } from "@/server/movements/instant-funding";
import { approvalPolicy } from "@/server/approvals/policy";
import { defineAction } from "@/server/action-kit/define-action";

/** A deposit or withdrawal at a virtual account, sent with the client_request_id its form made. */
export const createInstantFundingAction = defineAction({
  name: instantFunding.action,
  permission: "movements:write",
  input: instantFunding.schema,
  approval: approvalPolicy(instantFunding),
  run: (request, ctx) => instantFunding.send(request, ctx),
});
