"use server";
import "server-only";
import { updateAccountSchema } from "@/lib/schemas/virtual-account";
import { accountUpdate, sendAccountUpdate } from "@/server/accounts/update";
import { approvalPolicy } from "@/server/approvals/policy";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * Updates a virtual account's permissions, option level, commission code, W-8BEN and China Connect details.
 * Account type, master account and external number are not in the schema: they cannot be changed. Raising the
 * option level to LV3 or LV4, or changing the W-8BEN, waits for approval when a rule says so (the diff is stored).
 */
export const updateVirtualAccount = defineAction({
  name: "accounts.update",
  permission: "accounts:write",
  input: updateAccountSchema,
  approval: approvalPolicy(accountUpdate),
  run: (input, ctx) => sendAccountUpdate(input, ctx),
});
