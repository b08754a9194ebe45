"use server";
import "server-only";
import { AppError } from "@/lib/errors";
import { revealPiiSchema } from "@/lib/schemas/virtual-account";
import { piiOf } from "@/server/accounts/masking";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * A compliance reviewer reveals an account's masked W-8BEN tax id and addresses. The stated reason is the
 * action's input, so it is in the audit entry next to who looked and when. The values go to this one browser
 * response only; nothing is cached.
 */
export const revealAccountPii = defineAction({
  name: "accounts.reveal_pii",
  permission: "pii:reveal",
  input: revealPiiSchema,
  async run(input, { audit, broker }) {
    audit.target = `account:${input.account_id}`;
    const account = await broker.getVirtualAccount({ account_id: input.account_id });
    if (!account) throw new AppError("NOT_FOUND", "account not found", "This account does not exist.");
    return piiOf(account);
  },
});
