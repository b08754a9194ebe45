import { describe, expect, it } from "vitest";
import { runProgress, streamAlert } from "@/lib/stream-health";

describe("streamAlert (the banner across the desk)", () => {
  const at = (s: string) => `2026-11-23T10:00:${s}.000Z`;
  it("is off while connected, whatever the times", () => {
    expect(streamAlert({ state: "connected", since: at("00"), checkedAt: at("59") }, 30_000)).toBe(false);
  });
  it("comes on only when the stream has been down or silent for longer than the limit", () => {
    expect(streamAlert({ state: "down", since: at("00"), checkedAt: at("29") }, 30_000)).toBe(false);
    expect(streamAlert({ state: "down", since: at("00"), checkedAt: at("31") }, 30_000)).toBe(true);
    expect(streamAlert({ state: "silent", since: at("00"), checkedAt: at("45") }, 30_000)).toBe(true);
  });
  it("is on when no consumer has ever run (no time to measure from)", () => {
    expect(streamAlert({ state: "no-consumer", checkedAt: at("00") }, 30_000)).toBe(true);
  });
  it("is off with no status yet", () => {
    expect(streamAlert(undefined, 30_000)).toBe(false);
  });
});

describe("runProgress (a backfill's or a reconciliation's progress on the stream page)", () => {
  it("counts against the total once known, a run with nothing to do included", () => {
    expect(runProgress({ status: "running", total: 40, done: 3 })).toBe("3 of 40");
    expect(runProgress({ status: "done", total: 0, done: 0 })).toBe("0 of 0");
    expect(runProgress({ status: "done", total: 1200, done: 1200 })).toBe("1,200 of 1,200");
  });
  it("says 'so far' only while a run without a total is still running", () => {
    expect(runProgress({ status: "running", done: 12 })).toBe("12 so far");
    expect(runProgress({ status: "done", done: 12 })).toBe("12");
    expect(runProgress({ status: "failed", done: 0 })).toBe("0");
  });
});
