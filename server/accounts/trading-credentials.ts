import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { upstreamConfig } from "@/lib/env";
import {
  issuedTradingCredentialSchema, tradingCredentialViewSchema, type IssuedTradingCredential, type TradingCredentialView,
} from "@/lib/schemas/trading-credentials";
import type { BrokerClient } from "@/server/broker";

/**
 * Trading API credentials for a virtual account's holder. The Broker API has no operation for them, so against the
 * embedded sandbox they go through its control API (`/sandbox/trading-credentials…`, through the Broker client's
 * transport); against an external upstream they are issued in the upstream's own portal and the desk says so.
 * The secret passes through here once, on issue, and is never stored or logged by the desk.
 */
export const tradingCredentialsAvailable = () => upstreamConfig().kind === "sandbox";

function requireSandbox() {
  if (!tradingCredentialsAvailable()) {
    throw new AppError("UNSUPPORTED", "trading credentials need the embedded sandbox", "Trading API credentials are issued in the upstream's portal, not from the desk.");
  }
}

export async function listTradingCredentials(client: BrokerClient, accountId: string): Promise<TradingCredentialView[]> {
  requireSandbox();
  const { data } = await client.transport.callSandboxControl("/sandbox/trading-credentials/list", { account_id: accountId });
  return z.object({ data: z.array(tradingCredentialViewSchema) }).parse(data).data;
}

export async function issueTradingCredential(client: BrokerClient, accountId: string): Promise<IssuedTradingCredential> {
  requireSandbox();
  const { data } = await client.transport.callSandboxControl("/sandbox/trading-credentials", { account_id: accountId });
  return issuedTradingCredentialSchema.parse(data);
}

/** Revokes a key of this account only: a key of another account is "not found", whatever the caller sends. */
export async function revokeTradingCredential(client: BrokerClient, accountId: string, appKey: string): Promise<TradingCredentialView> {
  const own = await listTradingCredentials(client, accountId);
  if (!own.some((c) => c.app_key === appKey)) throw new AppError("NOT_FOUND", "no such trading credential for this account", "This app key does not belong to this account.");
  const { data } = await client.transport.callSandboxControl("/sandbox/trading-credentials/revoke", { app_key: appKey });
  return tradingCredentialViewSchema.parse(data);
}
