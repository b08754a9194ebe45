import { describe, expect, it } from "vitest";
import { streamAlert } from "@/lib/stream-health";

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
