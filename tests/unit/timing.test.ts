import { describe, expect, it, vi } from "vitest";
import { backoffMs, sleep } from "@/server/timing";

describe("backoff", () => {
  it("doubles from the base to the cap; equal jitter keeps half of it, full jitter may be anything up to it", () => {
    const at = (r: number, jitter: "equal" | "full") =>
      [1, 2, 3, 4, 10].map((n) => backoffMs(n, { baseMs: 100, maxMs: 500, jitter, random: () => r }));
    expect(at(0, "equal")).toEqual([50, 100, 200, 250, 250]);
    expect(at(1, "equal")).toEqual([100, 200, 400, 500, 500]);
    expect(at(0, "full")).toEqual([0, 0, 0, 0, 0]);
    expect(at(0.5, "full")).toEqual([50, 100, 200, 250, 250]);
    // A very long outage does not overflow to Infinity.
    expect(backoffMs(5_000, { baseMs: 100, maxMs: 500, jitter: "equal", random: () => 1 })).toBe(500);
  });
});

describe("sleep", () => {
  it("waits its time, or ends at once, without throwing, when the signal aborts", async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      void sleep(1000).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);

      const ac = new AbortController();
      let cut = false;
      void sleep(60_000, ac.signal).then(() => (cut = true));
      ac.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(cut).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
