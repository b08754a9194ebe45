"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { AppError } from "@/lib/errors";
import { issueTradingCredentialSchema, revokeTradingCredentialSchema } from "@/lib/schemas/trading-credentials";
import { createAccountSchema, revealPiiSchema, toUpstreamFields, updateAccountSchema } from "@/lib/schemas/virtual-account";
import { piiOf } from "@/server/accounts/masking";
import { getMasterAccount } from "@/server/accounts/master";
import { forgetAccountReads } from "@/server/accounts/shared-reads";
import { accountUpdate, sendAccountUpdate } from "@/server/accounts/update";
import { accountFieldMap } from "@/server/accounts/upstream-errors";
import { defineAction } from "@/server/action-kit/define-action";
import { toActionError } from "@/server/action-kit/upstream-error";
import { approvalPolicy } from "@/server/approvals/policy";
import { requireSandboxControl } from "@/server/sandbox-control";

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

const ELSEWHERE = "Trading API credentials are issued in the upstream's portal, not from the desk.";

/**
 * An operations user issues Trading API credentials for a virtual account, for its holder's app. The result carries
 * the secret for this one response (the panel shows it once); the audit entry holds the input and the app key only.
 * The Broker API has no operation for them: the embedded sandbox's adapter issues them.
 */
export const issueTradingCredentialAction = defineAction({
  name: "accounts.trading_credentials.issue",
  permission: "accounts:write",
  input: issueTradingCredentialSchema,
  async run(input, { audit }) {
    audit.target = `account:${input.account_id}`;
    return requireSandboxControl(ELSEWHERE).issueTradingCredential(input.account_id);
  },
});

/** Revokes one of the account's Trading API app keys: its holder's app is refused from the next call on. */
export const revokeTradingCredentialAction = defineAction({
  name: "accounts.trading_credentials.revoke",
  permission: "accounts:write",
  input: revokeTradingCredentialSchema,
  async run(input, { audit }) {
    audit.target = `account:${input.account_id}`;
    return requireSandboxControl(ELSEWHERE).revokeTradingCredential(input.account_id, input.app_key);
  },
});

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
