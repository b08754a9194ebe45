import "server-only";
import type { Logger } from "pino";
import { BrokerError, errorFromResponse, parseRetryAfter } from "./errors";
import { createLogger } from "@/server/log";
import { backoffMs, sleep } from "@/server/timing";
import {
  OPERATIONS,
  operationPath,
  VERSION_FOR_STYLE,
  type Operation,
  type OperationName,
  type PathStyle,
  type RateGroup,
} from "@/server/wire/operations";
import { RateBudget } from "./rate-budget";
import { percentEncode, signedHeaders, type SignatureAlgorithm } from "@/server/wire/signing";
import { TRADING_OPERATIONS, type TradingOperationName } from "@/server/wire/trading-operations";
import { STATUS_PROBE_HEADER } from "@/server/wire/modules";

/**
 * One signed HTTP exchange with the upstream, with timeout, retries and the rate budget. Knows nothing about
 * payload shapes (client.ts) or tokens (token-manager.ts): it is handed the token to send.
 */
export interface TransportConfig {
  baseUrl: string;
  appKey: string;
  appSecret: string;
  algorithm: SignatureAlgorithm;
  pathStyle: PathStyle;
  timeoutMs: number;
  maxRetries: number;
  retry?: Partial<RetryPolicy>;
}

export interface RetryPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error goes back to the caller. */
  maxRetryAfterMs: number;
}
export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 200, maxDelayMs: 5_000, maxRetryAfterMs: 30_000 };

export interface TransportDeps {
  fetch?: typeof fetch;
  logger?: Logger;
  budget?: RateBudget;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => Date;
  /** Told every attempt's outcome and duration (the status facility's evidence, server/status/recorder.ts). */
  observe?: CallObserver;
}

/** One attempt at the upstream as the status facility counts it: an answer's HTTP status, or why there was none. */
export type AttemptOutcome = { kind: "answer"; status: number } | { kind: "timeout" | "network" | "invalid" | "aborted" };
export type CallObserver = (call: { operation: string; outcome: AttemptOutcome; durationMs: number; probe: boolean }) => void;

export type QueryValue = string | number | boolean | readonly string[] | undefined | null;

export interface CallOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A POST the upstream makes idempotent by a client id in the body: safe to re-send, byte for byte. */
  idempotent?: boolean;
  accessToken?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** A status probe: its evidence is recorded as a probe's, not as a call's. */
  probe?: boolean;
}

export interface CallResult {
  data: unknown;
  status: number;
  requestId?: string;
  attempts: number;
}

class TimeoutSignal extends Error {}

/** Raw query values for signing and percent-encoded ones for the URL; arrays are comma-joined like the SDKs. */
export function normalizeQuery(query: Record<string, QueryValue> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    out[k] = Array.isArray(v) ? v.join(",") : String(v);
  }
  return out;
}

export class Transport {
  readonly origin: string;
  readonly host: string;
  private readonly basePath: string;
  private readonly retry: RetryPolicy;
  private readonly fetchImpl: typeof fetch;
  readonly logger: Logger;
  readonly budget: RateBudget;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => Date;
  private readonly observe?: CallObserver;

  constructor(
    readonly config: TransportConfig,
    deps: TransportDeps = {},
  ) {
    const url = new URL(config.baseUrl);
    this.origin = url.origin;
    this.host = url.host; // host[:port], exactly what fetch sends as Host
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.retry = { ...DEFAULT_RETRY, ...config.retry };
    this.fetchImpl = deps.fetch ?? globalThis.fetch;
    this.logger = deps.logger ?? createLogger({ name: "broker" });
    this.budget = deps.budget ?? new RateBudget();
    this.random = deps.random ?? Math.random;
    this.sleep = deps.sleep ?? sleep;
    this.now = deps.now ?? (() => new Date());
    this.observe = deps.observe;
  }

  get version(): "v2" | "v3" {
    return VERSION_FOR_STYLE[this.config.pathStyle];
  }

  /** Exponential backoff with "equal jitter": half fixed, half random, capped. */
  backoffMs(attempt: number): number {
    return backoffMs(attempt, { baseMs: this.retry.baseDelayMs, maxMs: this.retry.maxDelayMs, jitter: "equal", random: this.random });
  }

  /** An upstream operation; its URL comes from the OPERATIONS table and nowhere else. */
  call(name: OperationName, opts: CallOptions = {}): Promise<CallResult> {
    const op: Operation = OPERATIONS[name];
    return this.exchange(name, op.method, operationPath(name, this.config.pathStyle), op.group, opts);
  }

  /** A Trading API operation (the status probe's only use: the desk acts through the Broker API). */
  callTrading(name: TradingOperationName, opts: CallOptions = {}): Promise<CallResult> {
    const op = TRADING_OPERATIONS[name];
    return this.exchange(name, op.method, this.config.pathStyle === "legacy" ? op.legacy : op.resource, undefined, opts);
  }

  private report(operation: string, outcome: AttemptOutcome, started: number, probe: boolean | undefined) {
    if (!this.observe) return;
    try {
      this.observe({ operation, outcome, durationMs: Math.round(performance.now() - started), probe: probe === true });
    } catch {
      // Evidence is best effort: it never fails a call.
    }
  }

  private async exchange(
    name: string,
    method: "GET" | "POST",
    opPath: string,
    group: RateGroup | undefined,
    opts: CallOptions,
  ): Promise<CallResult> {
    const op = { method };
    const path = this.basePath + opPath;
    const query = normalizeQuery(opts.query);
    const qs = Object.entries(query)
      .map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`)
      .join("&");
    const url = `${this.origin}${path}${qs ? `?${qs}` : ""}`;
    // The body is serialised once: every retry sends the same bytes (and the same client id).
    const body = op.method === "POST" ? JSON.stringify(opts.body ?? {}) : undefined;
    const canRetry = op.method === "GET" || opts.idempotent === true;
    const maxAttempts = canRetry ? this.config.maxRetries + 1 : 1;

    for (let attempt = 1; ; attempt++) {
      if (group) await this.budget.acquire(group, opts.signal);
      const headers: Record<string, string> = {
        ...signedHeaders({
          appKey: this.config.appKey,
          appSecret: this.config.appSecret,
          algorithm: this.config.algorithm,
          path,
          query,
          host: this.host,
          body,
          now: this.now(),
        }),
        "x-version": this.version,
        accept: "application/json",
      };
      if (body !== undefined) headers["content-type"] = "application/json";
      if (opts.accessToken) headers["x-access-token"] = opts.accessToken;
      // Says what the call is for (unsigned, ignored by the upstream): the sandbox leaves probes out of its call counts.
      if (opts.probe) headers[STATUS_PROBE_HEADER] = "1";

      const started = performance.now();
      const log = { operation: name, method: op.method, path, attempt };
      let error: BrokerError;
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(new TimeoutSignal()), opts.timeoutMs ?? this.config.timeoutMs);
      const onCallerAbort = () => ac.abort(opts.signal!.reason);
      opts.signal?.addEventListener("abort", onCallerAbort, { once: true });
      try {
        const res = await this.fetchImpl(url, { method: op.method, headers, body, signal: ac.signal });
        const text = await res.text();
        const requestId = res.headers.get("x-request-id") ?? undefined;
        const durationMs = Math.round(performance.now() - started);
        if (res.ok) {
          const data: unknown = text ? JSON.parse(text) : null;
          this.report(name, { kind: "answer", status: res.status }, started, opts.probe);
          this.logger.info({ ...log, status: res.status, durationMs, requestId }, "broker call");
          return { data, status: res.status, requestId, attempts: attempt };
        }
        this.report(name, { kind: "answer", status: res.status }, started, opts.probe);
        const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"), this.now().getTime());
        error = errorFromResponse({ status: res.status, bodyText: text, requestId, operation: name, retryAfterMs });
        if (res.status === 429 && retryAfterMs && group) this.budget.pause(group, Math.min(retryAfterMs, this.retry.maxRetryAfterMs));
      } catch (e) {
        if (e instanceof SyntaxError) {
          this.report(name, { kind: "invalid" }, started, opts.probe);
          error = new BrokerError({
            status: 200,
            errorCode: "INVALID_RESPONSE",
            message: `${name}: response is not JSON`,
            operation: name,
          });
        } else if (ac.signal.reason instanceof TimeoutSignal) {
          this.report(name, { kind: "timeout" }, started, opts.probe);
          error = new BrokerError({
            status: 0,
            errorCode: "TIMEOUT",
            message: `${name}: no answer within ${opts.timeoutMs ?? this.config.timeoutMs} ms`,
            operation: name,
          });
        } else if (opts.signal?.aborted) {
          this.report(name, { kind: "aborted" }, started, opts.probe);
          error = new BrokerError({ status: 0, errorCode: "ABORTED", message: `${name}: aborted by caller`, operation: name, cause: e });
        } else {
          this.report(name, { kind: "network" }, started, opts.probe);
          error = new BrokerError({
            status: 0,
            errorCode: "NETWORK_ERROR",
            message: `${name}: ${(e as Error).message}`,
            operation: name,
            cause: e,
          });
        }
      } finally {
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onCallerAbort);
      }

      error.attempts = attempt;
      const durationMs = Math.round(performance.now() - started);
      const waitMs = error.retryAfterMs ?? this.backoffMs(attempt);
      const retrying =
        error.retryable &&
        attempt < maxAttempts &&
        error.errorCode !== "ABORTED" &&
        (error.retryAfterMs === undefined || error.retryAfterMs <= this.retry.maxRetryAfterMs);
      // A status probe's refusal (a 4xx) is the answer it asks for, the module being up: not a failure to warn of.
      const answered = opts.probe === true && error.status >= 400 && error.status < 500;
      this.logger[answered ? "info" : "warn"](
        {
          ...log,
          status: error.status,
          durationMs,
          requestId: error.requestId,
          errorCode: error.errorCode,
          retrying,
          retryInMs: retrying ? waitMs : undefined,
        },
        answered ? "broker probe answered" : "broker call failed",
      );
      if (!retrying) throw error;
      await this.sleep(waitMs, opts.signal);
      if (opts.signal?.aborted) {
        throw new BrokerError({
          status: 0,
          errorCode: "ABORTED",
          message: `${name}: aborted by caller`,
          operation: name,
          attempts: attempt,
          cause: opts.signal.reason,
        });
      }
    }
  }
}
