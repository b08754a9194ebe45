import "server-only";
import type { TokenState, TokenStatus } from "@/lib/connection";
import { BrokerError } from "./errors";
import { parseResponse } from "./parse";
import { tokenResponse, upstreamConfigResponse } from "./schemas/misc";
import type { StoredToken, TokenScope, TokenStore } from "./token-store";
import type { Transport } from "./transport";
import { sleep } from "@/server/timing";

/**
 * The upstream token and its 2FA (facts §2): create, poll check until NORMAL, keep it in the TokenStore, send it,
 * refresh it before it expires. A real upstream needs a person to confirm 2FA, so a token is only created
 * implicitly against the sandbox; otherwise calls fail with NO_TOKEN until an admin starts one.
 */
export type { TokenStatus };

export interface TokenManagerOptions {
  scope: TokenScope;
  /** "sandbox" allows creating a token implicitly (no person's 2FA involved). */
  kind: "sandbox" | "external";
  transport: Pick<Transport, "call">;
  store: TokenStore;
  now?: () => Date;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Refresh when fewer than this many ms remain (tokens live 15 days). Default 1 day. */
  refreshWindowMs?: number;
  /** Poll interval / limit while waiting for 2FA (SDK: 5 s / 300 s). */
  pollIntervalMs?: number;
  pollTimeoutMs?: number;
  /** How long an implicit sandbox token may take to become NORMAL before a call gives up. */
  autoWaitMs?: number;
  /** How long the stored token is trusted before re-reading the store (other processes may change it). */
  cacheMs?: number;
}

const KNOWN = ["PENDING", "NORMAL", "EXPIRED", "INVALID"] as const;
const MESSAGES: Record<TokenState, string> = {
  NONE: "No token yet. Start a new token; the broker will ask the account holder to confirm it (2FA).",
  PENDING: "Waiting for the two-factor confirmation of the new token (it expires if not confirmed within 5 minutes).",
  NORMAL: "Connected: the token is valid.",
  EXPIRED: "The token expired. Start a new token.",
  INVALID: "The token is no longer valid (unused for 15 days, or revoked). Start a new token.",
  UNKNOWN: "The broker reported a token status this app does not know.",
  NOT_REQUIRED: "This broker does not require a token.",
};

/** How often calls waiting on a PENDING token ask the upstream about it (the Connection page polls as often). */
const PENDING_CHECK_MS = 5_000;
/** A sandbox token still PENDING this long after it was made is taken as abandoned (demo mode confirms at once). */
const ABANDONED_AFTER_MS = 60_000;

export class TokenManager {
  private tokenCheck: boolean | undefined;
  /** When a call last asked the upstream about a PENDING token (the manager's clock). */
  private pendingCheckedAt = -Infinity;
  private cached: { token: StoredToken | undefined; at: number } | undefined;
  private inflight: Promise<string | undefined> | undefined;
  private readonly now: () => Date;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly o: TokenManagerOptions) {
    this.now = o.now ?? (() => new Date());
    this.sleep = o.sleep ?? sleep;
  }

  get canAutoCreate(): boolean {
    return this.o.kind === "sandbox";
  }

  async tokenCheckEnabled(signal?: AbortSignal): Promise<boolean> {
    if (this.tokenCheck === undefined) {
      const { data } = await this.o.transport.call("getConfig", { signal });
      this.tokenCheck = parseResponse(upstreamConfigResponse, data ?? {}, "getConfig").token_check_enabled;
    }
    return this.tokenCheck;
  }

  /** The stored token's state, without calling the upstream. */
  async status(): Promise<TokenStatus> {
    if (this.tokenCheck === false) return { state: "NOT_REQUIRED", tokenCheckEnabled: false, message: MESSAGES.NOT_REQUIRED };
    return this.view(await this.load(true));
  }

  /** Creates a new token (the upstream starts its 2FA). Does not wait: poll `check()` or call `waitUntilNormal()`. */
  async start(actor: string, signal?: AbortSignal): Promise<TokenStatus> {
    const { data } = await this.o.transport.call("createToken", { body: {}, signal });
    const t = parseResponse(tokenResponse, data, "createToken");
    const stored = await this.o.store.insert(this.o.scope, { token: t.token, status: t.status, expiresAt: t.expires, createdBy: actor });
    this.cached = { token: stored, at: Date.now() };
    return this.view(stored);
  }

  /** Asks the upstream for the current token's state and stores it. */
  async check(signal?: AbortSignal): Promise<TokenStatus> {
    const current = await this.load(true);
    if (!current) return this.view(undefined);
    const { data } = await this.o.transport.call("checkToken", { body: { token: current.token }, idempotent: true, signal });
    const t = parseResponse(tokenResponse, data, "checkToken");
    await this.o.store.update(this.o.scope, current.token, { token: t.token, status: t.status, expiresAt: t.expires });
    return this.view(await this.load(true));
  }

  /** Polls check until NORMAL; stops early on EXPIRED / INVALID / NONE; resolves with the last state seen. */
  async waitUntilNormal(opts: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal } = {}): Promise<TokenStatus> {
    const deadline = Date.now() + (opts.timeoutMs ?? this.o.pollTimeoutMs ?? 300_000);
    for (;;) {
      const s = await this.check(opts.signal);
      if (s.state !== "PENDING" || Date.now() >= deadline) return s;
      await this.sleep(Math.min(opts.intervalMs ?? this.o.pollIntervalMs ?? 5_000, Math.max(0, deadline - Date.now())), opts.signal);
    }
  }

  /** Exchanges the current token for a fresh one (facts §2: "refresh before expiration"). */
  async refresh(signal?: AbortSignal): Promise<TokenStatus> {
    const current = await this.load(true);
    if (!current) return this.view(undefined);
    const { data } = await this.o.transport.call("refreshToken", { body: { token: current.token }, signal });
    const t = parseResponse(tokenResponse, data, "refreshToken");
    await this.o.store.update(this.o.scope, current.token, { token: t.token, status: t.status, expiresAt: t.expires });
    return this.view(await this.load(true));
  }

  /** After the upstream answered INVALID_TOKEN for `token`. */
  async markInvalid(token: string): Promise<void> {
    await this.o.store.update(this.o.scope, token, { status: "INVALID", expiresAt: null });
    this.cached = undefined;
  }

  /** The token to send with a call, or undefined when the upstream does not check tokens. Single-flight. */
  accessToken(signal?: AbortSignal): Promise<string | undefined> {
    // The shared flight is not tied to one caller's signal (one abort must not fail the others); each caller
    // still stops waiting when its own signal fires.
    this.inflight ??= this.resolveToken().finally(() => (this.inflight = undefined));
    if (!signal) return this.inflight;
    if (signal.aborted) return Promise.reject(signal.reason);
    // The listener goes when the flight settles: a long-lived signal (a background job's) must not collect one per call.
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
    });
    return Promise.race([this.inflight, aborted]).finally(() => signal.removeEventListener("abort", onAbort));
  }

  private async resolveToken(): Promise<string | undefined> {
    if (!(await this.tokenCheckEnabled())) return undefined;
    let t = await this.load(false);
    const now = this.now().getTime();
    if (t?.status === "NORMAL" && t.expiresAt && t.expiresAt.getTime() <= now) {
      await this.o.store.update(this.o.scope, t.token, { status: "EXPIRED", expiresAt: t.expiresAt });
      t = await this.load(true);
    }
    if (t?.status === "NORMAL") {
      const left = t.expiresAt ? t.expiresAt.getTime() - now : Infinity;
      if (left < (this.o.refreshWindowMs ?? 86_400_000)) {
        const r = await this.refresh().catch(() => undefined); // a failed refresh keeps the still-valid token
        if (r?.state === "NORMAL") return (await this.load(false))!.token;
      }
      return t.token;
    }
    if (t?.status === "PENDING") {
      // A token waiting for its two-factor confirmation. The calls that need it ask the upstream about it at most
      // once every PENDING_CHECK_MS (background jobs call often), so that waiting does not spend the token group's
      // budget (10 calls per 30 s) that the Connection page's own check needs. In the sandbox, a token nobody
      // confirmed within ABANDONED_AFTER_MS is replaced by one of its own; a younger one is left to its confirmation.
      const checkedRecently = now - this.pendingCheckedAt < PENDING_CHECK_MS;
      if (!checkedRecently) this.pendingCheckedAt = now;
      const s = checkedRecently ? this.view(t) : await this.check();
      if (s.state === "NORMAL") return (await this.load(false))!.token;
      const abandoned = this.canAutoCreate && now - t.createdAt.getTime() >= ABANDONED_AFTER_MS;
      if (s.state === "PENDING" && !abandoned) throw tokenError("TOKEN_PENDING");
      t = await this.load(false);
    }
    if (this.canAutoCreate) {
      const started = await this.start("system:sandbox-auto");
      const s =
        started.state === "NORMAL" ? started : await this.waitUntilNormal({ timeoutMs: this.o.autoWaitMs ?? 10_000, intervalMs: 250 });
      if (s.state === "NORMAL") return (await this.load(false))!.token;
      throw tokenError(s.state === "PENDING" ? "TOKEN_PENDING" : "NO_TOKEN");
    }
    throw tokenError(t?.status === "EXPIRED" ? "TOKEN_EXPIRED" : t?.status === "INVALID" ? "TOKEN_INVALID" : "NO_TOKEN");
  }

  private async load(fresh: boolean): Promise<StoredToken | undefined> {
    if (!fresh && this.cached && Date.now() - this.cached.at < (this.o.cacheMs ?? 30_000)) return this.cached.token;
    const token = await this.o.store.latest(this.o.scope);
    this.cached = { token, at: Date.now() };
    return token;
  }

  private view(t: StoredToken | undefined): TokenStatus {
    const base = { tokenCheckEnabled: this.tokenCheck };
    if (!t) return { ...base, state: "NONE", message: MESSAGES.NONE };
    let state: TokenState = (KNOWN as readonly string[]).includes(t.status) ? (t.status as TokenState) : "UNKNOWN";
    if (state === "NORMAL" && t.expiresAt && t.expiresAt.getTime() <= this.now().getTime()) state = "EXPIRED";
    return {
      ...base,
      state,
      rawStatus: t.status,
      expiresAt: t.expiresAt?.toISOString(),
      createdAt: t.createdAt.toISOString(),
      checkedAt: t.checkedAt.toISOString(),
      createdBy: t.createdBy ?? undefined,
      message: state === "UNKNOWN" ? `${MESSAGES.UNKNOWN} (${t.status})` : MESSAGES[state],
    };
  }
}

function tokenError(code: "NO_TOKEN" | "TOKEN_PENDING" | "TOKEN_EXPIRED" | "TOKEN_INVALID"): BrokerError {
  return new BrokerError({ status: 401, errorCode: code, message: `broker token unavailable: ${code}` });
}
