import "server-only";

/**
 * Reference data kept for its natural lifetime (a profile for hours, a calendar for an hour, analyst views for
 * minutes), so that many staff reading one symbol cost the upstream one call. One entry a key: concurrent readers
 * share the call in flight; a failed call is forgotten at once (the next reader asks again); the oldest entries go
 * first past `max`. Per process: instances each keep their own, which the upstream's budget allows for.
 */
export interface TtlCache<T> {
  get(key: string, load: () => Promise<T>): Promise<T>;
  clear(): void;
}

export function ttlCache<T>({ ttlMs, max = 1000, now = Date.now }: { ttlMs: number; max?: number; now?: () => number }): TtlCache<T> {
  const entries = new Map<string, { until: number; value: Promise<T> }>();
  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.until > now()) return hit.value;
      entries.delete(key);
      const value = load();
      entries.set(key, { until: now() + ttlMs, value });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      while (entries.size > max) entries.delete(entries.keys().next().value as string);
      return value;
    },
    clear: () => entries.clear(),
  };
}
