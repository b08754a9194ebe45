"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { createAccountSchema, toUpstreamFields } from "@/lib/schemas/virtual-account";
import { getMasterAccount } from "@/server/accounts/master";
import { forgetAccountReads } from "@/server/accounts/shared-reads";
import { accountFieldMap } from "@/server/accounts/upstream-errors";
import { defineAction } from "@/server/action-kit/define-action";
import { toActionError } from "@/server/action-kit/upstream-error";

/**
 * Opens a virtual account. The form made `client_request_id` when it opened and sends the same one on every
 * retry, and the body is built the same way each time: the upstream treats a repeat as the same request, so a
 * double click or a retry after a timeout opens one account.
 */
export const createVirtualAccount = defineAction({
  name: "accounts.create",
  permission: "accounts:write",
  input: createAccountSchema,
  async run(input, { audit, broker }) {
    try {
      const master = await getMasterAccount();
      if (!master.accountId) {
        throw new AppError(
          "NO_MASTER_ACCOUNT",
          "master account unknown",
          "The master account is not known yet. An administrator must set BROKER_MASTER_ACCOUNT_ID.",
        );
      }
      const result = await broker
        .createVirtualAccount({
          client_request_id: input.client_request_id,
          belong_account_id: master.accountId,
          external_account_number: input.external_account_number,
          account_type: input.account_type,
          ...toUpstreamFields(input),
        })
        // Whatever the answer (a timeout may have opened it): the next list reads the upstream again.
        .finally(forgetAccountReads);
      audit.target = `account:${result.account_id}`;
      revalidatePath("/accounts");
      return { accountId: result.account_id, accountNumber: result.account_number ?? "", status: result.account_status ?? "" };
    } catch (error) {
      throw toActionError(error, { fields: accountFieldMap({ mailSameAsHome: input.w8ben_info.mail_same_as_home }), idempotent: true });
    }
  },
});
