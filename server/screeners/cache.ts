import "server-only";

/**
 * A small in-process cache for upstream reads that many staff share: one upstream call per key per lifetime, and
 * callers that arrive while it runs wait for that same call. A failure is not kept. Expired entries are dropped when
 * their key is read again; past `max` keys (the instrument page's data is keyed by symbol) the oldest go first.
 */
export class SharedCache<T> {
  private entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly max = 1000,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { at: this.now(), value });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}
