import { describe, expect, it, vi } from "vitest";
import { DEFAULT_RATE_LIMITS, RateBudget, TokenBucket } from "@/server/broker/rate-budget";

describe("rate budget", () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_RATE_LIMITS.token).toEqual({ limit: 10, windowMs: 30_000 });
    expect(DEFAULT_RATE_LIMITS["order-write"]).toEqual({ limit: 600, windowMs: 60_000 });
    expect(DEFAULT_RATE_LIMITS["order-query"]).toEqual({ limit: 2, windowMs: 2_000 });
  });

  // On Vitest's fake clock: the times are the bucket's own arithmetic, whatever the machine's load.
  it("queues a burst in order instead of letting it through", async () => {
    vi.useFakeTimers();
    try {
      const bucket = new TokenBucket({ limit: 2, windowMs: 200 });
      const t0 = Date.now();
      const done: [number, number][] = [];
      const burst = Promise.all(Array.from({ length: 6 }, (_, i) => bucket.acquire().then(() => done.push([i, Date.now() - t0]))));
      await vi.runAllTimersAsync();
      await burst;
      // 2 at once, then one every 100 ms.
      expect(done).toEqual([
        [0, 0],
        [1, 0],
        [2, 100],
        [3, 200],
        [4, 300],
        [5, 400],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("groups are independent and configurable; pause holds a group", async () => {
    vi.useFakeTimers();
    try {
      const budget = new RateBudget({ "order-query": { limit: 1, windowMs: 10_000 } });
      await budget.acquire("order-query");
      const t0 = Date.now();
      const waited = (p: Promise<void>) => p.then(() => Date.now() - t0);
      const query = waited(budget.acquire("order-query"));
      const funding = waited(budget.acquire("funding")); // unaffected
      await vi.advanceTimersByTimeAsync(0);
      expect(await funding).toBe(0);
      budget.pause("funding", 150);
      const paused = waited(budget.acquire("funding"));
      await vi.runAllTimersAsync();
      expect(await paused).toBe(150);
      expect(await query).toBe(10_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("an aborted waiter leaves the queue", async () => {
    const bucket = new TokenBucket({ limit: 1, windowMs: 10_000 });
    await bucket.acquire();
    const ac = new AbortController();
    const p = bucket.acquire(ac.signal);
    expect(bucket.queued).toBe(1);
    ac.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
    expect(bucket.queued).toBe(0);
  });
});
