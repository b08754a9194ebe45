import "server-only";
import type { RateGroup } from "@/server/wire/operations";

/**
 * Per-endpoint-group request budget: a token bucket per group with a FIFO queue, so a burst waits its turn
 * instead of earning 429s. Limits are the facts sheet §6.2 values where published; the rest are guesses, and all
 * of them can be overridden through the client config.
 */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMITS: Record<RateGroup, RateLimit> = {
  token: { limit: 10, windowMs: 30_000 }, // create / check: 10 per 30 s (documented)
  "order-write": { limit: 600, windowMs: 60_000 }, // place / replace / cancel: 600 per min (documented)
  "order-query": { limit: 2, windowMs: 2_000 }, // order queries: 2 per 2 s (documented)
  assets: { limit: 2, windowMs: 2_000 }, // balance: 2 per 2 s (documented for the JP Trading API)
  "market-data": { limit: 600, windowMs: 60_000 }, // documented
  // Not published for the Broker API (GUESS): 10 per second.
  account: { limit: 10, windowMs: 1_000 },
  instrument: { limit: 10, windowMs: 1_000 },
  funding: { limit: 10, windowMs: 1_000 },
  journal: { limit: 10, windowMs: 1_000 },
  "master-data": { limit: 10, windowMs: 1_000 },
};

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class TokenBucket {
  private tokens: number;
  private last: number;
  private pausedUntil = 0;
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly ratePerMs: number;

  constructor(
    private readonly rate: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = rate.limit;
    this.last = now();
    this.ratePerMs = rate.limit / rate.windowMs;
  }

  /** Resolves when a request may go out; rejects with the signal's reason if aborted while queued. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.refill();
    if (this.queue.length === 0 && this.tokens >= 1 && this.now() >= this.pausedUntil) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.schedule();
    });
  }

  /** After a 429 with Retry-After: hold the whole group, not just the one call. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
    if (this.queue.length) this.schedule();
  }

  get queued(): number {
    return this.queue.length;
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.rate.limit, this.tokens + (t - this.last) * this.ratePerMs);
    this.last = t;
  }

  private drain = (): void => {
    this.timer = undefined;
    this.refill();
    while (this.queue.length && this.tokens >= 1 && this.now() >= this.pausedUntil) {
      const w = this.queue.shift()!;
      this.tokens -= 1;
      if (w.signal && w.onAbort) w.signal.removeEventListener("abort", w.onAbort);
      w.resolve();
    }
    if (this.queue.length) this.schedule();
  };

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    const t = this.now();
    const untilToken = this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) / this.ratePerMs);
    const wait = Math.max(untilToken, this.pausedUntil - t, 0);
    // not unref'd: a script whose only pending work is a queued request must not exit early
    this.timer = setTimeout(this.drain, wait);
  }
}

export class RateBudget {
  private readonly buckets = new Map<RateGroup, TokenBucket>();
  private readonly limits: Record<RateGroup, RateLimit>;

  constructor(
    overrides: Partial<Record<RateGroup, RateLimit>> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_RATE_LIMITS, ...overrides };
  }

  bucket(group: RateGroup): TokenBucket {
    let b = this.buckets.get(group);
    if (!b) {
      b = new TokenBucket(this.limits[group], this.now);
      this.buckets.set(group, b);
    }
    return b;
  }

  acquire(group: RateGroup, signal?: AbortSignal): Promise<void> {
    return this.bucket(group).acquire(signal);
  }

  pause(group: RateGroup, ms: number): void {
    this.bucket(group).pause(ms);
  }
}
