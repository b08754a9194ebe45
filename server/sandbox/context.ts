import "server-only";
import type { Context } from "hono";
import type { Engine } from "@/server/db/engine";
import type { PathStyle } from "@/server/wire/operations";
import type { FaultStore, ModuleFaults } from "./faults";
import type { NonceStore } from "./nonces";

/** Settings fixed when the sandbox starts (autoConfirm2fa can be switched by a control call). */
export interface SandboxConfig {
  appKey: string;
  appSecret: string;
  autoConfirm2fa: boolean;
  tokenCheck: boolean;
  /** Token create/check calls allowed per 30 s per app key (upstream: 10). */
  tokenRateLimit: number;
  /** Market-data calls allowed per minute per app key (upstream: 600). */
  marketDataRateLimit: number;
  /** Seed of the simulated market's random walk: the same seed, the same prices. */
  marketSeed: string;
  /** How long an FX quote lives, in seconds (windows aligned on the epoch; default 60: a quote per minute). */
  fxQuoteSeconds: number;
  now: () => Date;
}

/** Everything a handler can reach: configuration, the database and the in-memory stores. */
export interface Sandbox {
  config: SandboxConfig;
  engine: Engine;
  nonces: NonceStore;
  faults: FaultStore;
  /** The modules switched into outage or degradation (`/sandbox/modules`). */
  modules: ModuleFaults;
  /** When true, new funding/FX/journal requests stay SUBMITTED until a control call completes or cancels them. */
  holdRequests: boolean;
  /** While true, the sandbox is reading a year of daily bars ahead after its start (`warmHistory`; `/health` says so). */
  readingAhead: boolean;
  /** Calls answered per "METHOD /path" since start or the last reset (the control API's own calls excluded). */
  calls: Map<string, number>;
  /** POST calls answered per "METHOD /path client_request_id" (a write's request id), reset with `calls`. */
  callsByRequestId: Map<string, number>;
}

export type HonoEnv = {
  Variables: {
    requestId: string;
    /** Set when the response was built with its x-request-id already (the router's JSON responses). */
    requestIdSent?: boolean;
    /** Decoded query values; repeated keys joined with ",". */
    query: Record<string, string>;
    /** The exact body text received, or undefined for a request without a body. */
    rawBody: string | undefined;
    /** Who signed the call: the broker's own app key, or an account holder's Trading API key (one virtual account). */
    principal: Principal;
  };
};

export type Principal = { kind: "broker"; appKey: string } | { kind: "trading"; appKey: string; accountId: string };

export type Ctx = Context<HonoEnv>;

export interface OpContext {
  sb: Sandbox;
  style: PathStyle;
  query: Record<string, string>;
  body: Record<string, unknown>;
  c: Ctx;
  /** A larger page_size limit than the default 200, where an operation's SDK asks for more (Trading API instruments). */
  maxPageSize?: number;
}
