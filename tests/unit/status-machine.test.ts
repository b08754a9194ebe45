import { describe, expect, it } from "vitest";
import {
  DEFAULT_THRESHOLDS,
  emptyTotals,
  judge,
  step,
  type CallTotals,
  type MachineState,
  type ModuleEvidence,
} from "@/server/status/machine";
import type { ModuleState } from "@/lib/status";

const t = (calls: number, failures = 0, latencyMs = 100, slow = 0): CallTotals => ({
  calls,
  failures,
  slow,
  latencyMsSum: calls * latencyMs,
});
const ev = (over: Partial<ModuleEvidence> = {}): ModuleEvidence => ({
  recent: emptyTotals(),
  window: emptyTotals(),
  spans: { recentMs: 75_000, windowMs: 300_000 },
  ...over,
});

describe("judge: evidence → the state it points to", () => {
  it("is unknown without a call or a probe", () => {
    expect(judge(ev()).state).toBe("unknown");
  });

  it("reads the recent calls first: most failing is an outage, some failing or slow is degraded", () => {
    expect(judge(ev({ recent: t(10, 6), window: t(50, 6) })).state).toBe("outage");
    expect(judge(ev({ recent: t(10, 2), window: t(50, 2) })).state).toBe("degraded");
    expect(judge(ev({ recent: t(10, 0, 2_500), window: t(10, 0, 2_500) })).state).toBe("degraded");
    expect(judge(ev({ recent: t(8, 0, 100, 2), window: t(8, 0, 100, 2) })).state).toBe("degraded");
    expect(judge(ev({ recent: t(10, 0), window: t(10, 0) })).state).toBe("operational");
    // Recent successes outweigh older failures in the window: the module is back.
    expect(judge(ev({ recent: t(5, 0), window: t(40, 30) })).state).toBe("operational");
  });

  it("says a failure among many calls as under one per cent, not as none", () => {
    expect(judge(ev({ recent: t(300, 1), window: t(300, 1) })).reason).toBe("1 of 300 calls failed in the last 75 s (<1%), average 100 ms");
    expect(judge(ev({ recent: t(300, 0), window: t(300, 0) })).reason).toBe("0 of 300 calls failed in the last 75 s (0%), average 100 ms");
    expect(judge(ev({ recent: t(100, 1), window: t(100, 1) })).reason).toBe("1 of 100 calls failed in the last 75 s (1%), average 100 ms");
  });

  it("names the time each count covers, so the recent count and the window's are not read as one", () => {
    expect(judge(ev({ recent: t(10, 3), window: t(19, 3) })).reason).toBe("3 of 10 calls failed in the last 75 s (30%), average 100 ms");
    expect(judge(ev({ recent: t(2, 0), window: t(19, 3) })).reason).toBe("3 of 19 calls failed in the last 5 min (16%), average 100 ms");
    expect(judge(ev()).reason).toBe("no call and no probe in the last 5 min");
  });

  it("takes the probe when nobody called lately", () => {
    expect(judge(ev({ recent: t(1, 0), probe: { ok: false, latencyMs: 30 } }))).toMatchObject({
      state: "outage",
      reason: "the probe failed (30 ms)",
    });
    expect(judge(ev({ probe: { ok: true, latencyMs: 3_000 } })).state).toBe("degraded");
    expect(judge(ev({ window: t(20, 15), probe: { ok: true, latencyMs: 40 } })).state).toBe("operational");
  });

  it("never calls one or two failed calls an outage (too few for a rate)", () => {
    expect(judge(ev({ recent: t(1, 1), window: t(1, 1) })).state).toBe("degraded");
    expect(judge(ev({ window: t(2, 0) })).state).toBe("operational");
    expect(judge(ev({ window: t(4, 3) })).state).toBe("outage");
  });

  it("reads the event stream's health for the event stream", () => {
    expect(judge(ev({ stream: "connected" })).state).toBe("operational");
    expect(judge(ev({ stream: "silent" })).state).toBe("degraded");
    expect(judge(ev({ stream: "down" })).state).toBe("outage");
    expect(judge(ev({ stream: "no-consumer" })).state).toBe("outage");
    expect(judge(ev({ stream: "never" })).state).toBe("unknown");
  });
});

describe("step: the hysteresis", () => {
  const run = (start: ModuleState, observed: ModuleState[]) => {
    let s: MachineState = { state: start, candidate: null, streak: 0 };
    return observed.map((o) => (s = step(s, o)).state);
  };

  it("changes only after two evaluations in a row point to the new state", () => {
    expect(run("operational", ["outage", "outage", "outage"])).toEqual(["operational", "outage", "outage"]);
    expect(run("outage", ["operational", "operational"])).toEqual(["outage", "operational"]);
  });

  it("does not flap on one bad evaluation, nor on alternating ones", () => {
    expect(run("operational", ["outage", "operational", "outage", "operational"])).toEqual(Array(4).fill("operational"));
    expect(run("operational", ["outage", "degraded", "outage", "degraded"])).toEqual(Array(4).fill("operational"));
  });

  it("takes the first good evidence at once from unknown, a bad one after the hysteresis", () => {
    expect(run("unknown", ["operational"])).toEqual(["operational"]);
    expect(run("unknown", ["outage", "outage"])).toEqual(["unknown", "outage"]);
  });

  it("counts the streak with the configured hysteresis", () => {
    const th = { ...DEFAULT_THRESHOLDS, hysteresis: 3 };
    let s: MachineState = { state: "operational", candidate: null, streak: 0 };
    const seen = ["degraded", "degraded", "degraded"].map((o) => (s = step(s, o as ModuleState, th)).state);
    expect(seen).toEqual(["operational", "operational", "degraded"]);
  });
});
