import { randomBytes } from "node:crypto";
import type { Profile } from "./config";
import { CliError, EXIT } from "./errors";
import { SIGNATURE_HEADERS, sign } from "./signing";

/**
 * The one way the CLI talks to a desk: every request signed with the profile's access key (a fresh timestamp and
 * nonce each attempt), the session as a bearer where the call needs one, a timeout, and retries only where a
 * repeat cannot act twice: reads, and writes carrying their own client_request_id (the same body bytes each time).
 */

export type RetryPolicy = "safe" | "never";

export type RequestSpec = {
  method: "GET" | "POST";
  /** The path under the desk's URL, e.g. `/api/skills/find-orders`. */
  path: string;
  query?: Record<string, string>;
  /** Sent as JSON; its bytes are what is signed. */
  body?: unknown;
  /** Whether the call carries the session (every call but login and the health check). */
  session?: boolean;
  retry?: RetryPolicy;
};

export type PreparedRequest = { method: string; url: string; headers: Record<string, string>; body?: string };
export type DeskAnswer = { status: number; body: unknown; headers: Headers };

export type ClientOptions = {
  fetch?: typeof fetch;
  timeoutMs?: number;
  attempts?: number;
  retryBaseMs?: number;
  now?: () => number;
  /** Told before each retry (the CLI writes a line to stderr). */
  onRetry?: (attempt: number, reason: string) => void;
};

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const VERSION = "0.1.0";

const newNonce = () => randomBytes(18).toString("base64url");

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

export class DeskClient {
  private readonly options: Required<Omit<ClientOptions, "onRetry">> & Pick<ClientOptions, "onRetry">;

  constructor(
    private readonly profile: Profile,
    options: ClientOptions = {},
  ) {
    this.options = {
      fetch: options.fetch ?? fetch,
      timeoutMs: options.timeoutMs ?? envNumber("BROKERDESK_TIMEOUT_MS", 30_000),
      attempts: options.attempts ?? 3,
      retryBaseMs: options.retryBaseMs ?? envNumber("BROKERDESK_RETRY_BASE_MS", 400),
      now: options.now ?? Date.now,
      onRetry: options.onRetry,
    };
  }

  get desk(): string {
    return this.profile.desk;
  }

  /** The request as it is sent: URL, signed headers, body. A new timestamp and nonce on every call. */
  prepare(spec: RequestSpec): PreparedRequest {
    const url = new URL(`${this.profile.desk}${spec.path}`);
    for (const [k, v] of Object.entries(spec.query ?? {})) url.searchParams.append(k, v);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const headers: Record<string, string> = { accept: "application/json", "user-agent": `brokerdesk-cli/${VERSION}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const { access_key_id: keyId, secret_key: secret } = this.profile;
    if (keyId && secret) {
      const timestamp = String(this.options.now());
      const nonce = newNonce();
      headers[SIGNATURE_HEADERS.key] = keyId;
      headers[SIGNATURE_HEADERS.timestamp] = timestamp;
      headers[SIGNATURE_HEADERS.nonce] = nonce;
      headers[SIGNATURE_HEADERS.signature] = sign(secret, {
        method: spec.method,
        path: url.pathname,
        query: url.searchParams,
        body,
        timestamp,
        nonce,
      });
    }
    if (spec.session && this.profile.session) headers.authorization = `Bearer ${this.profile.session}`;
    return { method: spec.method, url: url.toString(), headers, body };
  }

  async send(spec: RequestSpec): Promise<DeskAnswer> {
    const attempts = spec.retry === "safe" ? Math.max(1, this.options.attempts) : 1;
    for (let attempt = 1; ; attempt++) {
      const request = this.prepare(spec);
      let answer: DeskAnswer | undefined;
      let failure: unknown;
      try {
        answer = await this.fetchOnce(request);
      } catch (e) {
        failure = e;
      }
      const retryable = answer ? RETRY_STATUSES.has(answer.status) : true;
      if (!retryable || attempt >= attempts) {
        if (answer) return answer;
        throw networkError(failure, this.profile.desk);
      }
      const reason = answer ? `HTTP ${answer.status}` : describe(failure);
      this.options.onRetry?.(attempt, reason);
      await delay(this.retryDelay(attempt, answer));
    }
  }

  private async fetchOnce(request: PreparedRequest): Promise<DeskAnswer> {
    const response = await this.options.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { message: text.slice(0, 300) };
    }
    return { status: response.status, body, headers: response.headers };
  }

  private retryDelay(attempt: number, answer: DeskAnswer | undefined): number {
    const retryAfter = Number(answer?.headers.get("retry-after"));
    if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter * 1000, 30_000);
    const base = this.options.retryBaseMs * 2 ** (attempt - 1);
    return base / 2 + Math.random() * (base / 2);
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    if (error.name === "TimeoutError") return "timed out";
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

function networkError(error: unknown, desk: string): CliError {
  return new CliError("NETWORK", `Could not reach the desk at ${desk}: ${describe(error)}.`, EXIT.error, {
    hint: "Check the desk's URL (`brokerdesk profile list`) and your connection.",
  });
}
