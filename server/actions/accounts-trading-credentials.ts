"use server";
import "server-only";
import { issueTradingCredentialSchema, revokeTradingCredentialSchema } from "@/lib/schemas/trading-credentials";
import { issueTradingCredential, revokeTradingCredential } from "@/server/accounts/trading-credentials";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * An operations user issues Trading API credentials for a virtual account, for its holder's app. The result carries
 * the secret for this one response (the panel shows it once); the audit entry holds the input and the app key only.
 */
export const issueTradingCredentialAction = defineAction({
  name: "accounts.trading_credentials.issue",
  permission: "accounts:write",
  input: issueTradingCredentialSchema,
  async run(input, { audit, broker }) {
    audit.target = `account:${input.account_id}`;
    return issueTradingCredential(broker, input.account_id);
  },
});

/** Revokes one of the account's Trading API app keys: its holder's app is refused from the next call on. */
export const revokeTradingCredentialAction = defineAction({
  name: "accounts.trading_credentials.revoke",
  permission: "accounts:write",
  input: revokeTradingCredentialSchema,
  async run(input, { audit, broker }) {
    audit.target = `account:${input.account_id}`;
    return revokeTradingCredential(broker, input.account_id, input.app_key);
  },
});
