import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { upstreamConfig, type UpstreamConfig } from "@/lib/env";
import {
  issuedTradingCredentialSchema,
  tradingCredentialViewSchema,
  type IssuedTradingCredential,
  type TradingCredentialView,
} from "@/lib/schemas/trading-credentials";
import { BrokerError, errorFromResponse } from "@/server/broker/errors";
import type { RateLimit } from "@/server/broker/rate-budget";
import type { RateGroup } from "@/server/wire/operations";
import { signedHeaders } from "@/server/wire/signing";

/**
 * What only the embedded sandbox offers the desk beside the Broker API, in one adapter: confirming a pending token
 * in place of the account holder's phone, and issuing, listing and revoking holders' Trading API credentials (a real
 * upstream does these in its own portal). `sandboxControl()` is undefined against a real upstream, and the Broker
 * client knows nothing of any of it. The calls are signed like any other (the control API takes no access token).
 */
export interface SandboxControl {
  /** Confirms the newest pending token of the desk's app key, as the holder's 2FA step would. */
  confirmPendingToken(signal?: AbortSignal): Promise<void>;
  listTradingCredentials(accountId: string): Promise<TradingCredentialView[]>;
  issueTradingCredential(accountId: string): Promise<IssuedTradingCredential>;
  /** Revokes a key of this account only: a key of another account is "not found", whatever the caller sends. */
  revokeTradingCredential(accountId: string, appKey: string): Promise<TradingCredentialView>;
}

/**
 * The sandbox enforces only the token limits and market data's 600 a minute (the desk's default budget for that group
 * already keeps to it); elsewhere the desk is not throttled against it.
 */
export const SANDBOX_RATE_LIMITS: Partial<Record<RateGroup, RateLimit>> = {
  assets: { limit: 50, windowMs: 1_000 },
  "order-query": { limit: 50, windowMs: 1_000 },
};

type Connection = Pick<UpstreamConfig, "baseUrl" | "appKey" | "appSecret" | "algorithm" | "timeoutMs">;

export function createSandboxControl(u: Connection): SandboxControl {
  async function call(path: `/sandbox/${string}`, input: unknown, signal?: AbortSignal): Promise<unknown> {
    const url = new URL(u.baseUrl.replace(/\/+$/, "") + path);
    const body = JSON.stringify(input);
    const headers = {
      ...signedHeaders({
        appKey: u.appKey,
        appSecret: u.appSecret,
        algorithm: u.algorithm,
        path: url.pathname,
        query: {},
        host: url.host,
        body,
      }),
      "content-type": "application/json",
      accept: "application/json",
    };
    const timeout = AbortSignal.timeout(u.timeoutMs);
    let res: Response;
    try {
      res = await fetch(url, { method: "POST", headers, body, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (e) {
      throw new BrokerError({
        status: 0,
        errorCode: timeout.aborted ? "TIMEOUT" : "NETWORK_ERROR",
        message: `sandbox:${path}: ${(e as Error).message}`,
        operation: `sandbox:${path}`,
        cause: e,
      });
    }
    const text = await res.text();
    const requestId = res.headers.get("x-request-id") ?? undefined;
    if (!res.ok) throw errorFromResponse({ status: res.status, bodyText: text, requestId, operation: `sandbox:${path}` });
    return text ? JSON.parse(text) : null;
  }

  const list = async (accountId: string) =>
    z
      .object({ data: z.array(tradingCredentialViewSchema) })
      .parse(await call("/sandbox/trading-credentials/list", { account_id: accountId })).data;

  return {
    confirmPendingToken: async (signal) => {
      await call("/sandbox/tokens/confirm", {}, signal);
    },
    listTradingCredentials: list,
    issueTradingCredential: async (accountId) =>
      issuedTradingCredentialSchema.parse(await call("/sandbox/trading-credentials", { account_id: accountId })),
    revokeTradingCredential: async (accountId, appKey) => {
      if (!(await list(accountId)).some((c) => c.app_key === appKey)) {
        throw new AppError("NOT_FOUND", "no such trading credential for this account", "This app key does not belong to this account.");
      }
      return tradingCredentialViewSchema.parse(await call("/sandbox/trading-credentials/revoke", { app_key: appKey }));
    },
  };
}

const holder = globalThis as unknown as { __brokerdeskSandboxControl?: SandboxControl | null };

/** The process's adapter: present on the embedded defaults, undefined against a real upstream. */
export function sandboxControl(): SandboxControl | undefined {
  if (holder.__brokerdeskSandboxControl === undefined) {
    const u = upstreamConfig();
    holder.__brokerdeskSandboxControl = u.kind === "sandbox" ? createSandboxControl(u) : null;
  }
  return holder.__brokerdeskSandboxControl ?? undefined;
}

/** Tests point the process's adapter at their own sandbox (undefined: derive it from the configuration again). */
export function setSandboxControlForTests(control: SandboxControl | undefined): void {
  holder.__brokerdeskSandboxControl = control;
}

/** The adapter, or a refusal with `userMessage` (where a real upstream does this instead). */
export function requireSandboxControl(userMessage: string): SandboxControl {
  const control = sandboxControl();
  if (!control) throw new AppError("UNSUPPORTED", "this needs the embedded sandbox", userMessage);
  return control;
}
