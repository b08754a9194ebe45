import "server-only";
import { STATUS_MODULES, type ModuleState, type StatusModule } from "@/lib/status";
import type { BrokerClient } from "@/server/broker/client";
import { streamStatus } from "@/server/books/health";
import type { Engine } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import {
  DEFAULT_THRESHOLDS,
  emptyTotals,
  isIncidentState,
  judge,
  step,
  worse,
  type CallTotals,
  type ModuleEvidence,
  type Thresholds,
} from "./machine";
import {
  claimEvaluation,
  closeIncident,
  countDay,
  deleteSamplesBefore,
  holdsClaim,
  openIncident,
  saveModule,
  selectCallTotals,
  selectLatestProbes,
  selectModules,
  selectOpenIncident,
  updateIncident,
  type TotalsRow,
} from "./queries";
import type { StatusRecorder } from "./recorder";

/**
 * One evaluation of every module: claim the period (one evaluator across instances), flush this process's evidence,
 * probe the modules nobody called lately, judge each module, apply the hysteresis, open and close incidents, count
 * the day's bar, and tell the live pages when something changed.
 */
export interface StatusDeps {
  engine: Engine;
  /** The desk's upstream client; its observer feeds `recorder` (so the probes' evidence lands there). */
  client: BrokerClient;
  recorder: StatusRecorder;
  evalMs: number;
  windowMs: number;
  /** The event stream's silence limit (EVENTS_SILENCE_MS). */
  silenceMs: number;
  thresholds?: Thresholds;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
}

type ProbedModule = Exclude<StatusModule, "event-stream">;

/** One cheap GET per module, never an order or a write. A 4xx answer means the module answered: it is up. */
const PROBES: Record<ProbedModule, (c: BrokerClient, token: string | undefined, timeoutMs: number) => Promise<unknown>> = {
  account: (c, accessToken, timeoutMs) =>
    c.transport.call("listVirtualAccounts", { query: { page_size: 1 }, accessToken, timeoutMs, probe: true }),
  instrument: (c, accessToken, timeoutMs) =>
    c.transport.call("listStockInstruments", { query: { page_size: 1 }, accessToken, timeoutMs, probe: true }),
  activities: (c, accessToken, timeoutMs) =>
    c.transport.call("listAccountActivities", { query: { page_size: 1 }, accessToken, timeoutMs, probe: true }),
  assets: (c, accessToken, timeoutMs) => c.transport.call("getBalance", { accessToken, timeoutMs, probe: true }),
  order: (c, accessToken, timeoutMs) =>
    c.transport.call("listOpenOrders", { query: { page_size: 1 }, accessToken, timeoutMs, probe: true }),
  funding: (c, accessToken, timeoutMs) => c.transport.call("getFxRate", { accessToken, timeoutMs, probe: true }),
  journals: (c, accessToken, timeoutMs) => c.transport.call("getCashJournal", { accessToken, timeoutMs, probe: true }),
  "master-data": (c, accessToken, timeoutMs) => c.transport.call("listTradeCalendar", { accessToken, timeoutMs, probe: true }),
  options: (c, accessToken, timeoutMs) =>
    c.transport.call("listOptionContracts", { query: { page_size: 1 }, accessToken, timeoutMs, probe: true }),
  "trading-api": (c, _token, timeoutMs) => c.transport.callTrading("listTradingAccounts", { timeoutMs, probe: true }),
  "market-data": (c, accessToken, timeoutMs) => c.transport.call("getStockSnapshot", { accessToken, timeoutMs, probe: true }),
};

const totals = (r: TotalsRow | undefined, recent: boolean): CallTotals =>
  r
    ? recent
      ? { calls: +r.recent_calls, failures: +r.recent_failures, slow: +r.recent_slow, latencyMsSum: +r.recent_latency_ms_sum }
      : { calls: +r.calls, failures: +r.failures, slow: +r.slow, latencyMsSum: +r.latency_ms_sum }
    : emptyTotals();

/** What an evaluation did (evaluateStatus answers undefined when another instance holds this period). */
export interface EvaluationResult {
  evaluated: boolean;
  probed: StatusModule[];
  states: Record<StatusModule, ModuleState>;
  changed: StatusModule[];
}

/** The latest part of the window whose calls decide, and how often an idle module is probed. */
export const recentMsFor = (windowMs: number, evalMs: number) => Math.max(Math.round(windowMs / 4), evalMs);

async function gatherEvidence(d: StatusDeps, recentMs: number) {
  const calls = new Map((await selectCallTotals(d.engine, d.windowMs, recentMs)).map((r) => [r.module, r]));
  const probes = new Map((await selectLatestProbes(d.engine, d.windowMs, recentMs)).map((r) => [r.module, r]));
  return { calls, probes };
}

export async function evaluateStatus(d: StatusDeps): Promise<EvaluationResult | undefined> {
  const th = d.thresholds ?? DEFAULT_THRESHOLDS;
  const claim = await claimEvaluation(d.engine, d.evalMs);
  if (!claim) return undefined;
  const recentMs = recentMsFor(d.windowMs, d.evalMs);
  await d.recorder.flush(d.engine);

  // Probes for the modules nobody called enough lately and not probed within the same span.
  let evidence = await gatherEvidence(d, recentMs);
  const due = (Object.keys(PROBES) as ProbedModule[]).filter(
    (m) => totals(evidence.calls.get(m), true).calls < th.minCalls && !evidence.probes.get(m)?.fresh,
  );
  if (due.length > 0) {
    const token = await d.client.tokens.accessToken().catch(() => undefined);
    const timeoutMs = Math.min(d.client.transport.config.timeoutMs, Math.max(d.evalMs, 2_000));
    await Promise.allSettled(due.map((m) => PROBES[m](d.client, token, timeoutMs)));
    await d.recorder.flush(d.engine);
    evidence = await gatherEvidence(d, recentMs);
  }
  const stream = await streamStatus(d.engine, d.silenceMs);

  const states = {} as Record<StatusModule, ModuleState>;
  const changed: StatusModule[] = [];
  const current = await d.engine.transaction(async (tx) => {
    // A later claim (this run took longer than a period) wins: this one writes nothing.
    if (!(await holdsClaim(tx, claim))) return false;
    const prev = new Map((await selectModules(tx)).map((r) => [r.module, r]));
    for (const mod of STATUS_MODULES) {
      const e: ModuleEvidence = {
        recent: totals(evidence.calls.get(mod), true),
        window: totals(evidence.calls.get(mod), false),
        spans: { recentMs, windowMs: d.windowMs },
      };
      const probe = evidence.probes.get(mod);
      if (probe) e.probe = { ok: probe.failures === 0, latencyMs: Math.round(+probe.latency_ms_sum / Math.max(1, probe.calls)) };
      if (mod === "event-stream") e.stream = stream.state === "no-consumer" && !stream.since ? "never" : stream.state;
      const j = judge(e, th);
      const p = prev.get(mod);
      const s = step(
        { state: (p?.state as ModuleState) ?? "unknown", candidate: (p?.candidate as ModuleState | null) ?? null, streak: p?.streak ?? 0 },
        j.state,
        th,
      );
      const facts = { reason: j.reason, ...e };
      await saveModule(tx, {
        module: mod,
        state: s.state,
        changed: s.changed || !p,
        candidate: s.candidate,
        streak: s.streak,
        evidence: facts,
      });
      await countDay(tx, mod, s.state);
      states[mod] = s.state;
      if (!s.changed) continue;
      changed.push(mod);
      const open = await selectOpenIncident(tx, mod);
      if (isIncidentState(s.state)) {
        if (!open) await openIncident(tx, mod, s.state, facts);
        else await updateIncident(tx, open.id, worse(open.state, s.state), { ...open.evidence, latest: j.reason });
      } else if (s.state === "operational" && open) {
        await closeIncident(tx, open.id, { ...open.evidence, resolved: j.reason });
      }
    }
    if (changed.length > 0) await notifyChange(tx, { topics: ["status"], accounts: [] });
    return true;
  });
  await deleteSamplesBefore(d.engine, d.windowMs);
  if (!current) return undefined;
  if (changed.length > 0) d.log?.("info", "status changed", { changed: Object.fromEntries(changed.map((m) => [m, states[m]])) });
  return { evaluated: true, probed: due, states, changed };
}

/** Evaluates every `evalMs` in the processes that run the background work; the claim keeps one evaluation a period. */
export function startStatusLoop(d: StatusDeps): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      await evaluateStatus(d);
    } catch (e) {
      d.log?.("warn", "status evaluation failed", { error: (e as Error).message });
    }
    if (!stopped) timer = setTimeout(tick, d.evalMs);
  };
  timer = setTimeout(tick, Math.min(d.evalMs, 1_000));
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
