"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { toUpstreamFields, updateAccountSchema } from "@/lib/schemas/virtual-account";
import { accountFieldMap } from "@/server/accounts/upstream-errors";
import { defineAction } from "./safe-action";
import { toActionError } from "./upstream-error";

/**
 * Updates a virtual account's permissions, option level, commission code, W-8BEN and China Connect details.
 * Account type, master account and external number are not in the schema: they cannot be changed.
 */
export const updateVirtualAccount = defineAction({
  name: "accounts.update",
  permission: "accounts:write",
  input: updateAccountSchema,
  async run(input, { audit, broker }) {
    audit.target = `account:${input.account_id}`;
    try {
      const result = await broker.updateVirtualAccount({ client_request_id: input.client_request_id, account_id: input.account_id, ...toUpstreamFields(input) });
      revalidatePath(`/accounts/${input.account_id}`);
      revalidatePath("/accounts");
      return { accountId: result.account_id, status: result.account_status ?? "" };
    } catch (error) {
      throw toActionError(error, { fields: accountFieldMap({ mailSameAsHome: input.w8ben_info.mail_same_as_home }), idempotent: true });
    }
  },
});
