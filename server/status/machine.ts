import type { ModuleState } from "@/lib/status";

/**
 * The pure part of the status facility: a module's evidence → the state it points to (`judge`), and the hysteresis
 * that turns those into the state shown (`step`). No clock, no database: tests/unit/status-machine.test.ts.
 */
export interface CallTotals {
  calls: number;
  failures: number;
  /** Calls slower than the latency threshold. */
  slow: number;
  latencyMsSum: number;
}

export interface ModuleEvidence {
  /** The desk's real calls in the latest quarter of the window, and in the whole window. */
  recent: CallTotals;
  window: CallTotals;
  /** The latest probe within the window (probes run only while nobody called the module lately). */
  probe?: { ok: boolean; latencyMs: number };
  /** The event stream's health, for `event-stream` only. */
  stream?: "connected" | "silent" | "down" | "no-consumer" | "never";
  /** How long `recent` and `window` span, named in the reason so that two counts are read over their own time. */
  spans: { recentMs: number; windowMs: number };
}

export interface Thresholds {
  /** Fewer calls than this are not a rate: the probe (or the whole window) decides. */
  minCalls: number;
  /** At or above this share of failed calls: outage ("most calls failing"). */
  outageErrorRate: number;
  /** At or above this share: degraded. */
  degradedErrorRate: number;
  /** A call slower than this is slow; this average, or a quarter of the calls slow: degraded. */
  slowMs: number;
  slowShare: number;
  /** Consecutive evaluations pointing to a new state before the module changes to it. */
  hysteresis: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  minCalls: 3,
  outageErrorRate: 0.5,
  degradedErrorRate: 0.1,
  slowMs: 2_000,
  slowShare: 0.25,
  hysteresis: 2,
};

export const emptyTotals = (): CallTotals => ({ calls: 0, failures: 0, slow: 0, latencyMsSum: 0 });

export interface Judgement {
  state: ModuleState;
  /** The evidence in words, as the page and the incident show it. */
  reason: string;
}

/** A share as a whole percentage; a failure among many is "<1%", never a 0% that reads as none. */
const percent = (rate: number) => (rate > 0 && rate < 0.005 ? "<1%" : `${Math.round(rate * 100)}%`);

/** "in the last 75 s", "in the last 5 min": the time a count covers. */
export function lastSpan(ms: number): string {
  const s = Math.round(ms / 1000);
  return `in the last ${s < 120 ? `${s} s` : `${Math.round(s / 60)} min`}`;
}

function fromCalls(t: CallTotals, th: Thresholds, scope: string): Judgement {
  const rate = t.failures / t.calls;
  const avg = Math.round(t.latencyMsSum / t.calls);
  const words = `${t.failures} of ${t.calls} calls failed ${scope} (${percent(rate)}), average ${avg} ms`;
  if (rate >= th.outageErrorRate) return { state: "outage", reason: words };
  if (rate >= th.degradedErrorRate || avg >= th.slowMs || t.slow / t.calls >= th.slowShare) return { state: "degraded", reason: words };
  return { state: "operational", reason: words };
}

/** The state the evidence points to now. */
export function judge(e: ModuleEvidence, th: Thresholds = DEFAULT_THRESHOLDS): Judgement {
  if (e.stream) {
    switch (e.stream) {
      case "connected":
        return { state: "operational", reason: "the event stream is connected and heard from" };
      case "silent":
        return { state: "degraded", reason: "the event stream is connected but silent (no event, no ping)" };
      case "down":
        return { state: "outage", reason: "the event stream is disconnected" };
      case "no-consumer":
        return { state: "outage", reason: "no event consumer is running" };
      case "never":
        return { state: "unknown", reason: "no event consumer has run yet" };
    }
  }
  if (e.recent.calls >= th.minCalls) return fromCalls(e.recent, th, lastSpan(e.spans.recentMs));
  if (e.probe) {
    if (!e.probe.ok) return { state: "outage", reason: `the probe failed (${e.probe.latencyMs} ms)` };
    if (e.probe.latencyMs >= th.slowMs) return { state: "degraded", reason: `the probe answered slowly (${e.probe.latencyMs} ms)` };
    return { state: "operational", reason: `the probe answered in ${e.probe.latencyMs} ms` };
  }
  if (e.window.calls >= th.minCalls) return fromCalls(e.window, th, lastSpan(e.spans.windowMs));
  if (e.window.calls > 0) {
    // Too few calls for a rate: failures point to degraded at most (the next probe tells more).
    const j = fromCalls(e.window, th, lastSpan(e.spans.windowMs));
    return j.state === "outage" ? { ...j, state: "degraded" } : j;
  }
  return { state: "unknown", reason: `no call and no probe ${lastSpan(e.spans.windowMs)}` };
}

export interface MachineState {
  state: ModuleState;
  /** The state the latest evaluations pointed to, when it differs from `state`, and how many in a row. */
  candidate: ModuleState | null;
  streak: number;
}

export interface Step extends MachineState {
  changed: boolean;
}

/**
 * One evaluation: the module changes only once `hysteresis` evaluations in a row pointed to the same new state.
 * From `unknown` the first evidence is taken at once (there is nothing to flap from).
 */
export function step(prev: MachineState, observed: ModuleState, th: Thresholds = DEFAULT_THRESHOLDS): Step {
  if (observed === prev.state) return { state: prev.state, candidate: null, streak: 0, changed: false };
  if (prev.state === "unknown" && observed !== "outage" && observed !== "degraded") {
    return { state: observed, candidate: null, streak: 0, changed: true };
  }
  const streak = prev.candidate === observed ? prev.streak + 1 : 1;
  if (streak >= th.hysteresis) return { state: observed, candidate: null, streak: 0, changed: true };
  return { state: prev.state, candidate: observed, streak, changed: false };
}

/** Whether a state has an open incident: degraded and outage do. */
export const isIncidentState = (s: ModuleState): s is "degraded" | "outage" => s === "degraded" || s === "outage";

/** Worse of two incident states. */
export const worse = (a: "degraded" | "outage", b: "degraded" | "outage"): "degraded" | "outage" =>
  a === "outage" || b === "outage" ? "outage" : "degraded";
