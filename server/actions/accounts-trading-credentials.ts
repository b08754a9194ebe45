"use server";
import "server-only";
import { issueTradingCredentialSchema, revokeTradingCredentialSchema } from "@/lib/schemas/trading-credentials";
import { defineAction } from "@/server/action-kit/define-action";
import { requireSandboxControl } from "@/server/sandbox-control";

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
