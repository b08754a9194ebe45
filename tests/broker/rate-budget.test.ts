import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS, RateBudget, TokenBucket } from "@/server/broker/rate-budget";

describe("rate budget", () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_RATE_LIMITS.token).toEqual({ limit: 10, windowMs: 30_000 });
    expect(DEFAULT_RATE_LIMITS["order-write"]).toEqual({ limit: 600, windowMs: 60_000 });
    expect(DEFAULT_RATE_LIMITS["order-query"]).toEqual({ limit: 2, windowMs: 2_000 });
  });

  it("queues a burst in order instead of letting it through", async () => {
    const bucket = new TokenBucket({ limit: 2, windowMs: 200 });
    const t0 = Date.now();
    const done: number[] = [];
    await Promise.all(Array.from({ length: 6 }, (_, i) => bucket.acquire().then(() => done.push(i))));
    const elapsed = Date.now() - t0;
    expect(done).toEqual([0, 1, 2, 3, 4, 5]);
    // 2 at once, then one every 100 ms: the 6th goes out after ~400 ms
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(1_500);
  });

  it("groups are independent and configurable; pause holds a group", async () => {
    const budget = new RateBudget({ "order-query": { limit: 1, windowMs: 10_000 } });
    await budget.acquire("order-query");
    const t0 = Date.now();
    await budget.acquire("funding"); // unaffected
    expect(Date.now() - t0).toBeLessThan(50);
    budget.pause("funding", 150);
    await budget.acquire("funding");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
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
