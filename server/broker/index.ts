import "server-only";
import type { ConnectionInfo, ConnectionStatus, TokenStatus } from "@/lib/connection";
import { upstreamConfig, type UpstreamConfig } from "@/lib/env";
import { refuseWhileBuilding } from "@/server/build-phase";
import { getDb } from "@/server/db";
import { createBrokerClient, type BrokerClient, type BrokerClientConfig } from "./client";
import { BrokerError, isBrokerError } from "./errors";
import { VERSION_FOR_STYLE } from "@/server/wire/operations";
import { DbTokenStore } from "./token-store";
import { SANDBOX_RATE_LIMITS } from "@/server/sandbox-control";
import { processRecorder, recordingObserver } from "@/server/status";

/**
 * Process-wide entry points: `broker()` for upstream calls, and the token functions the Admin → Connection page
 * calls. Nothing returned here carries the secret or the token itself.
 */
export { type BrokerClient, type BrokerClientConfig, type RequestOptions } from "./client";
export { isBrokerError } from "./errors";
export { paginate } from "./pagination";
export type { ConnectionStatus, TokenStatus } from "@/lib/connection";

const holder = globalThis as unknown as { __brokerdeskBroker?: BrokerClient };

export function broker(): BrokerClient {
  refuseWhileBuilding("The upstream");
  holder.__brokerdeskBroker ??= createBrokerClient(clientConfig(upstreamConfig()), {
    tokenStore: new DbTokenStore(getDb),
    // Every real call is evidence of its module's state (server/status).
    observe: recordingObserver(processRecorder),
  });
  return holder.__brokerdeskBroker;
}

/** Tests and scripts swap the process client. */
export function setBrokerForTests(client: BrokerClient | undefined): void {
  holder.__brokerdeskBroker = client;
}

export function clientConfig(u: UpstreamConfig): BrokerClientConfig {
  return { ...u, rateLimits: u.kind === "sandbox" ? SANDBOX_RATE_LIMITS : undefined };
}

export function maskAppKey(key: string): string {
  return key.length <= 8 ? "••••" : `${key.slice(0, 4)}…${key.slice(-4)}`;
}

function connectionInfo(c: BrokerClient): ConnectionInfo {
  const u = upstreamConfig();
  return {
    kind: u.kind,
    baseUrl: u.baseUrl,
    appKeyMasked: maskAppKey(u.appKey),
    pathStyle: u.pathStyle,
    algorithm: u.algorithm,
    version: VERSION_FOR_STYLE[c.config.pathStyle],
  };
}

/** Runs one step of the token flow and reports the connection with the token's state; an upstream failure is reported, not thrown. */
export async function connectionStep(run: (c: BrokerClient) => Promise<TokenStatus>): Promise<ConnectionStatus> {
  const c = broker();
  const connection = connectionInfo(c);
  try {
    return { connection, token: await run(c) };
  } catch (e) {
    const err = isBrokerError(e) ? e : new BrokerError({ status: 0, errorCode: "UNKNOWN_ERROR", message: String(e), cause: e });
    return {
      connection,
      token: await c.tokens.status().catch(() => ({ state: "NONE" as const, message: err.userMessage })),
      error: { errorCode: err.errorCode, userMessage: err.userMessage, requestId: err.requestId },
    };
  }
}

/** Current connection and token state. Probes GET /openapi/config once per process; never throws for upstream failures. */
export function tokenStatus(): Promise<ConnectionStatus> {
  return connectionStep(async (c) => {
    await c.tokens.tokenCheckEnabled();
    return c.tokens.status();
  });
}

/**
 * Creates a new upstream token on behalf of `actor` (a staff id or email, stored as created_by). The upstream then
 * asks the account holder to confirm (2FA); the returned state is usually PENDING — poll `checkToken()`.
 */
export function startNewToken(actor: string): Promise<ConnectionStatus> {
  return connectionStep((c) => c.tokens.start(actor));
}

/** Asks the upstream for the stored token's state (PENDING → NORMAL after 2FA) and stores it. */
export function checkToken(): Promise<ConnectionStatus> {
  return connectionStep((c) => c.tokens.check());
}

/** Exchanges the current token for a fresh one before it expires. */
export function refreshToken(): Promise<ConnectionStatus> {
  return connectionStep((c) => c.tokens.refresh());
}
