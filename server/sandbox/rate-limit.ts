import "server-only";
import type { Sandbox } from "./context";
import { ApiError } from "./errors";

/**
 * Sliding-window limits of the sandbox, on its clock (config.now): at most `limit` calls per `windowMs` for one key,
 * else 429 TOO_MANY_REQUESTS (the status the upstream's rate limiting is taken to answer, facts §6.1).
 */
const windows = new WeakMap<Sandbox, Map<string, number[]>>();

export function windowLimit(sb: Sandbox, key: string, limit: number, windowMs: number, what: string): void {
  const byKey = windows.get(sb) ?? new Map<string, number[]>();
  windows.set(sb, byKey);
  const now = sb.config.now().getTime();
  const recent = (byKey.get(key) ?? []).filter((t) => now - t < windowMs);
  if (recent.length >= limit) {
    byKey.set(key, recent);
    throw new ApiError(429, "TOO_MANY_REQUESTS", `${what} are limited to ${limit} per ${windowMs / 1000} seconds.`);
  }
  recent.push(now);
  byKey.set(key, recent);
}

/** Every Market Data API call: 600 a minute per app key (facts §6.2), one window per key across every market-data route. */
export const marketDataLimit = (sb: Sandbox, appKey: string) =>
  windowLimit(sb, `market-data:${appKey}`, sb.config.marketDataRateLimit, 60_000, "Market data requests");
