import "server-only";

/**
 * The one sleep and the one backoff of the server: the Broker client's retries, the token manager's polling, the
 * event consumer's reconnects and the background loops all wait through these. (The one rate limiter is the token
 * bucket in server/broker/rate-budget.ts.)
 */

/** Waits `ms`, or less when `signal` aborts (it then resolves: the caller checks `signal.aborted`); leaves no listener behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

export interface Backoff {
  baseMs: number;
  maxMs: number;
  /**
   * "equal": half the delay fixed, half random (a retry of one call: never at once); "full": anywhere from 0 to the
   * delay (many processes reconnecting to one service spread out).
   */
  jitter: "equal" | "full";
  random?: () => number;
}

/** Exponential backoff: attempt 1 waits about `baseMs`, each next attempt twice as long, capped at `maxMs`. */
export function backoffMs(attempt: number, b: Backoff): number {
  const exp = Math.min(b.maxMs, b.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  const r = (b.random ?? Math.random)();
  return Math.round(b.jitter === "equal" ? exp / 2 + (r * exp) / 2 : r * exp);
}
