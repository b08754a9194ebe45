import "server-only";
import { brokerErrorKind, brokerUserMessage, type BrokerErrorKind } from "@/lib/broker-errors";
import { AppError, isAppError } from "@/lib/errors";

/**
 * The one error type of the Broker API client, an AppError whose code is the upstream's error code. `message` is for logs and engineers; `userMessage` is safe to show
 * a person (no secrets, no stack). `retryable` says whether the failure class is transient (429, 5xx, timeout,
 * network); whether the client actually retried depends on the operation (see transport.ts).
 */
// A brand shared by every copy of this module: Next can load the client in several server bundles, each with its
// own BrokerError class, so `instanceof` alone would miss errors thrown by another bundle's copy.
const BRAND = Symbol.for("brokerdesk.BrokerError");

export class BrokerError extends AppError {
  override readonly name = "BrokerError";
  readonly [BRAND] = true;
  readonly status: number;
  readonly retryable: boolean;
  readonly kind: BrokerErrorKind;
  readonly operation?: string;
  /** Attempts made before giving up (1 = no retry). */
  attempts: number;
  /** Milliseconds the upstream asked us to wait (Retry-After), if it did. */
  readonly retryAfterMs?: number;

  constructor(init: {
    status: number;
    errorCode: string;
    message: string;
    requestId?: string;
    operation?: string;
    retryAfterMs?: number;
    attempts?: number;
    cause?: unknown;
  }) {
    super(init.errorCode, init.message, brokerUserMessage(init.status, init.errorCode, init.message), undefined, {
      requestId: init.requestId,
      cause: init.cause,
    });
    this.status = init.status;
    this.operation = init.operation;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? 1;
    this.kind = brokerErrorKind(init.status, init.errorCode);
    this.retryable = isRetryableStatus(init.status) || init.errorCode === "TIMEOUT" || init.errorCode === "NETWORK_ERROR";
  }

  /** The upstream's error code (the app error's code). */
  get errorCode(): string {
    return this.code;
  }

  /** What may cross to a browser or an action result. */
  toSafeJSON() {
    return {
      errorCode: this.errorCode,
      status: this.status,
      userMessage: this.userMessage,
      requestId: this.requestId,
      retryable: this.retryable,
    };
  }
}

export function isBrokerError(e: unknown): e is BrokerError {
  return e instanceof BrokerError || (typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[BRAND] === true);
}

/**
 * Whether, after this failure, the upstream may have the request a write sent: no answer (a timeout, the network), a
 * 5xx, an answer not read, or the desk's own failure at any point (the send included). A refusal is not: the desk's
 * own check before sending (an AppError), or the upstream's answer that it refused or never took the request (a 4xx,
 * the rate limit, the token). An upstream failure an action mapped to its form keeps the BrokerError as its cause.
 */
export function outcomeUnknown(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const upstream = isBrokerError(error) ? error : isBrokerError(cause) ? cause : undefined;
  if (upstream) return !["business", "rate-limit", "token", "auth"].includes(upstream.kind);
  return !isAppError(error);
}

/** A failure in words for a row's last_error and the logs: the upstream's code and message, else the error's message. */
export const errorText = (e: unknown, max = 1000): string =>
  (isBrokerError(e) ? `${e.errorCode}: ${e.message}` : String((e as Error)?.message ?? e)).slice(0, max);

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Builds the error for a non-2xx answer. The body is `{error_code, message}` when the upstream follows its docs. */
export function errorFromResponse(opts: {
  status: number;
  bodyText: string;
  requestId?: string;
  operation?: string;
  retryAfterMs?: number;
}): BrokerError {
  let errorCode = "";
  let message = "";
  try {
    const parsed = JSON.parse(opts.bodyText) as unknown;
    if (parsed && typeof parsed === "object") {
      const o = parsed as Record<string, unknown>;
      if (typeof o.error_code === "string") errorCode = o.error_code;
      if (typeof o.message === "string") message = o.message;
    }
  } catch {
    // not JSON (a proxy's HTML page, say): fall back on the status below
  }
  if (!errorCode) errorCode = fallbackCode(opts.status);
  if (!message) message = `HTTP ${opts.status}`;
  return new BrokerError({ ...opts, errorCode, message });
}

function fallbackCode(status: number): string {
  if (status === 401) return "UNAUTHORIZED";
  if (status === 429) return "TOO_MANY_REQUESTS";
  if (status === 503) return "SERVICE_NOT_AVAILABLE";
  if (status === 504) return "GATEWAY_TIMEOUT";
  if (status >= 500) return "INTERNAL_ERROR";
  return `HTTP_${status}`;
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
