import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { throttle } from "@/lib/throttle";

/** lib/throttle.ts: the live channel's notices and the pages' refetches, at most one a window, nothing lost. */
describe("throttle", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const collect = () => {
    const got: string[][] = [];
    const t = throttle<string[]>(
      (v) => got.push(v),
      (a, b) => [...a, ...b],
      250,
    );
    return { got, t };
  };

  it("delivers a lone value at once, and a burst's rest merged when the window ends", () => {
    const { got, t } = collect();
    t.push(["a"]);
    expect(got).toEqual([["a"]]);
    for (const v of ["b", "c", "d"]) t.push([v]);
    expect(got).toEqual([["a"]]);
    vi.advanceTimersByTime(250);
    expect(got).toEqual([["a"], ["b", "c", "d"]]);
  });

  it("keeps a steady stream to one delivery a window, in order, losing none", () => {
    const { got, t } = collect();
    for (let i = 0; i < 100; i++) {
      t.push([String(i)]);
      vi.advanceTimersByTime(10); // 100 values a second for a second
    }
    vi.advanceTimersByTime(1_000);
    expect(got.length).toBeLessThanOrEqual(5);
    expect(got.flat()).toEqual(Array.from({ length: 100 }, (_, i) => String(i)));
  });

  it("after a quiet window the next value is not delayed", () => {
    const { got, t } = collect();
    t.push(["a"]);
    vi.advanceTimersByTime(250); // the window ends with nothing waiting
    t.push(["b"]);
    expect(got).toEqual([["a"], ["b"]]);
  });

  it("stop drops what waits", () => {
    const { got, t } = collect();
    t.push(["a"]);
    t.push(["b"]);
    t.stop();
    vi.advanceTimersByTime(1_000);
    expect(got).toEqual([["a"]]);
  });
});
