"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { toUpstreamFields, updateAccountSchema } from "@/lib/schemas/virtual-account";
import { accountFieldMap } from "@/server/accounts/upstream-errors";
import { broker as plainBroker } from "@/server/broker";
import { logger } from "@/server/log";
import { recordOptionLevelChange } from "@/server/surveillance/alerts";
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
  async run(input, { audit, broker, db, staff }) {
    audit.target = `account:${input.account_id}`;
    // The level before the update, for surveillance (an option order soon after a raise): the upstream's account events
    // do not say what changed. Read outside the audited calls; when it cannot be read, no raise is recorded.
    const before = input.option_level
      ? await plainBroker().getVirtualAccount({ account_id: input.account_id }).then((a) => ({ level: a.option_level ?? null }), () => undefined)
      : undefined;
    try {
      const result = await broker.updateVirtualAccount({ client_request_id: input.client_request_id, account_id: input.account_id, ...toUpstreamFields(input) });
      if (before) {
        await recordOptionLevelChange(db.engine, { accountId: input.account_id, from: before.level, to: input.option_level, by: staff.email })
          .catch((error: unknown) => logger.error({ err: error, account: input.account_id }, "option level raise not recorded"));
      }
      revalidatePath(`/accounts/${input.account_id}`);
      revalidatePath("/accounts");
      return { accountId: result.account_id, status: result.account_status ?? "" };
    } catch (error) {
      throw toActionError(error, { fields: accountFieldMap({ mailSameAsHome: input.w8ben_info.mail_same_as_home }), idempotent: true });
    }
  },
});
