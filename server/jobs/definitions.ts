import "server-only";
import { sweepActivities, type SweepDeps } from "@/server/activities/sweep";
import { requestActivitiesSweep } from "@/server/activities/sweep-requests";
import { nextStuckCheck, recoverStuckExecutions } from "@/server/approvals/recover";
import { sweepExpired } from "@/server/approvals/requests";
import type { BrokerClient } from "@/server/broker/client";
import type { AppDb } from "@/server/db";
import type { Engine } from "@/server/db/engine";
import { backfill, backfillDue, completeMovementDetails, completeOrderDetails, reconcile, type SyncDeps } from "@/server/events/sync";
import { pacer, runOrderSweep, type OrderSweepDeps, type SweepMemory } from "@/server/orders/sweep";
import { sweptWithin } from "./queries";
import { runOutboxLoop, type OutboxDeps } from "@/server/status-mail/outbox";
import { hasOpenStatementRun, runStatementRuns } from "@/server/statements/bulk";
import {
  hasOpenRun as hasOpenReconciliationRun,
  hasRunSince as hasReconciliationRunSince,
  queueRun as queueReconciliationRun,
} from "@/server/reconciliation/queries";
import { runReconciliations } from "@/server/reconciliation/run";
import { hasOpenReportRun, runReports } from "@/server/reports/run";
import { evaluateNewEvents } from "./surveillance";

/** What the jobs run with: the app database, the upstream client and the configuration (lib/env.ts). */
export interface JobDeps {
  db: AppDb;
  client: BrokerClient;
  log: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
  backfillDays: number;
  reconcileAfterMs: number;
  reconcileIntervalMs: number;
  /** The activities sweep's options (rate, days, master account); `intervalMs` is its schedule. */
  activities: Omit<SweepDeps, "engine" | "client" | "log"> & { intervalMs: number };
  /** The open-orders sweep's share of the order-query budget and how often busy accounts come round; absent: no sweep. */
  orders?: Pick<OrderSweepDeps, "rate" | "hotMs" | "relistMs">;
  /** The status mails' outbox (server/status-mail/run.ts); absent when mail is off (no AUTH_SECRET). */
  mail?: OutboxDeps;
  /** How long an approved request's execution may go without a beat before it counts as stopped (default STUCK_AFTER_MS). */
  stuckAfterMs?: number;
}

/**
 * What one run answers: `again` sends the job once more (it stopped at its time slice and resumes from its cursor);
 * `againAfterSeconds` sends it once more that many seconds from now (something it watches comes due then).
 */
export interface JobOutcome {
  again?: boolean;
  againAfterSeconds?: number;
  output?: Record<string, unknown>;
}

export interface JobDefinition {
  name: string;
  label: string;
  /**
   * singleton: one job of the queue active at a time across instances. stately: also at most one waiting, so a
   * request or a schedule while one runs queues exactly one more.
   */
  policy: "singleton" | "stately";
  retryLimit: number;
  /** Seconds before the first retry; doubled each time with `retryBackoff`. */
  retryDelay: number;
  retryBackoff: boolean;
  /**
   * A job still active this long after it started is failed by pg-boss's maintenance and retried: that is how a job
   * whose process died comes back. The run gets a signal that aborts a little before, and stops at a resumable point.
   */
  expireInSeconds: number;
  /** A cron line (minute resolution), when the job runs on a schedule. */
  schedule?: (d: JobDeps) => string;
  /** Offered as "Run now" on the admin page. */
  onRequest: boolean;
  /** Sent once when a process starts the job system, when this answers true (a round or a backfill is due). */
  dueAtStart?(deps: JobDeps): Promise<boolean>;
  /** What a request of it records beside the job (the sweep: its request time, which the explorer shows). */
  request?(engine: Engine, by: string): Promise<JobData>;
  run(data: JobData, deps: JobDeps, state: JobState, signal: AbortSignal): Promise<JobOutcome>;
}

export interface JobData {
  /** The staff member who asked for it (the page's request), else a schedule or the event path. */
  requestedBy?: string;
  /** When it was asked for (the database's clock): a round that started before it does not answer it. */
  requestedAt?: string;
  /** When this job was sent (the database's clock), given to `run` by the runtime; never stored with the job. */
  sentAt?: string;
}

/** What a job keeps across its runs within one process (the sweep's pacer is shared by its rounds). */
export type JobState = Map<string, unknown>;

/** A cron line for an interval, to whole minutes (pg-boss's schedules have a minute's resolution). */
export function cronEvery(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes === 1) return "* * * * *";
  if (minutes < 60) return `*/${minutes} * * * *`;
  const hours = Math.min(24, Math.round(minutes / 60));
  return hours >= 24 ? "0 0 * * *" : `0 */${hours} * * *`;
}

/**
 * A job that is a loop: a run works until its slice ends (the signal), then the job sends itself again; the minute
 * schedule is the backstop that brings it back after a crash, and a process starts it when `wanted` says so.
 */
function loopJob(
  name: string,
  label: string,
  wanted: (d: JobDeps) => boolean,
  loop: (d: JobDeps, state: JobState, signal: AbortSignal) => Promise<Record<string, unknown>>,
): JobDefinition {
  return {
    name,
    label,
    policy: "stately",
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 60,
    schedule: () => "* * * * *",
    onRequest: false,
    dueAtStart: async (d) => wanted(d),
    async run(_data, d, state, signal) {
      const output = await loop(d, state, signal);
      return { again: wanted(d), output };
    },
  };
}

/**
 * A job that works runs kept as rows (a page's request, a schedule's slot): its `work` takes them until none is left
 * or the slice ends (`again`: sent once more, it resumes); the minute schedule and a process's start (while a run is
 * open) bring back a run whose job was lost. What else `work` answers is the run's output.
 */
function runsJob(
  name: string,
  label: string,
  retryDelay: number,
  hasOpenRun: (engine: Engine) => Promise<boolean>,
  work: (d: JobDeps, signal: AbortSignal) => Promise<{ again: boolean } & Record<string, unknown>>,
): JobDefinition {
  return {
    name,
    label,
    policy: "stately",
    retryLimit: 3,
    retryDelay,
    retryBackoff: true,
    expireInSeconds: 300,
    schedule: () => cronEvery(60_000),
    onRequest: false,
    dueAtStart: (d) => hasOpenRun(d.db.engine),
    async run(_data, d, _state, signal) {
      const { again, ...output } = await work(d, signal);
      return { again, output };
    },
  };
}

const syncDeps = (d: JobDeps): SyncDeps => ({ engine: d.db.engine, client: d.client, log: d.log });

export const JOBS = {
  activitiesSweep: {
    name: "activities-sweep",
    label: "Activities sweep",
    policy: "stately",
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 300,
    schedule: (d) => cronEvery(d.activities.intervalMs),
    onRequest: true,
    // A round at start unless one started within the interval (the schedule's next minute may be far off).
    dueAtStart: async (d) => !(await sweptWithin(d.db.engine, d.activities.intervalMs)),
    async request(engine, by) {
      return { requestedBy: by, requestedAt: (await requestActivitiesSweep(engine, by)).requestedAt };
    },
    async run(data, d, state, signal) {
      // One deps object a process: its rounds share one pacer.
      let deps = state.get("sweep") as SweepDeps | undefined;
      if (!deps) {
        const { intervalMs: _interval, ...a } = d.activities;
        state.set("sweep", (deps = { ...a, engine: d.db.engine, client: d.client, log: d.log }));
      }
      const round = await sweepActivities(deps, { signal, requestedBy: data.requestedBy });
      // A resumed round that started before the request does not answer it: a new round follows at once.
      const unanswered = round.complete && !!data.requestedAt && Date.parse(round.startedAt) < Date.parse(data.requestedAt);
      return { again: (!round.complete && signal.aborted) || unanswered, output: { ...round } };
    },
  },
  backfill: {
    name: "backfill",
    label: "Backfill",
    policy: "stately",
    retryLimit: 10,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
    onRequest: false,
    // Until the first run is done, and while a gap's run is left running, each start sends it (it resumes from
    // its cursor); the consumer's "backfill" notice sends it when it records a gap.
    dueAtStart: async (d) => await backfillDue(d.db.engine),
    async run(data, d, _state, signal) {
      if (!(await backfillDue(d.db.engine))) return { output: { skipped: "done before" } };
      const run = await backfill(syncDeps(d), { days: d.backfillDays, signal, requestedBy: data.requestedBy });
      return { again: signal.aborted, output: { ...run } };
    },
  },
  reconcile: {
    name: "reconcile",
    label: "Reconciliation",
    policy: "stately",
    retryLimit: 2,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 600,
    schedule: (d) => cronEvery(d.reconcileIntervalMs),
    onRequest: true,
    async run(data, d, _state, signal) {
      // On request every non-final row is asked about; on the schedule only those non-final for a while.
      const afterMs = data.requestedBy ? 0 : d.reconcileAfterMs;
      const run = await reconcile(syncDeps(d), { afterMs, requestedBy: data.requestedBy, signal });
      return { output: { ...run } };
    },
  },
  // The open-orders sweep's loop (server/orders/sweep.ts); its pace and its last account listing kept across runs.
  ordersSweep: loopJob(
    "orders-sweep",
    "Open-orders sweep",
    (d) => !!d.orders,
    async (d, state, signal) => {
      if (!d.orders) return { skipped: "no sweep configured" };
      let memory = state.get("orders-sweep") as SweepMemory | undefined;
      if (!memory) state.set("orders-sweep", (memory = { pace: pacer(d.orders.rate), listedAt: 0 }));
      return { ...(await runOrderSweep({ ...d.orders, engine: d.db.engine, client: d.client, log: d.log }, memory, signal)) };
    },
  ),
  orderDetails: {
    name: "order-details",
    label: "Order and movement details",
    policy: "stately",
    retryLimit: 3,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 120,
    schedule: () => cronEvery(60_000),
    onRequest: false,
    async run(_data, d, _state, signal) {
      const limit = 20;
      let read = 0;
      // Orders that events describe in part, then completed FX requests whose bought amount and rate no event carries.
      for (const pass of [completeOrderDetails, completeMovementDetails]) {
        for (;;) {
          const n = await pass(syncDeps(d), limit);
          read += n;
          if (n < limit) break;
          if (signal.aborted) return { again: true, output: { read } };
        }
      }
      return { output: { read } };
    },
  },
  approvalsExpiry: {
    name: "approvals-expiry",
    label: "Approval expiry and stuck executions",
    policy: "singleton",
    retryLimit: 1,
    retryDelay: 30,
    retryBackoff: false,
    expireInSeconds: 120,
    schedule: () => "* * * * *",
    onRequest: true,
    async run(_data, d) {
      const expired = await sweepExpired(d.db);
      const settled = await recoverStuckExecutions(d.db, { olderThanMs: d.stuckAfterMs });
      // An execution still under way: looked at again when it would count as stopped, not at the next minute.
      return { output: { expired, settled }, againAfterSeconds: await nextStuckCheck(d.db, { olderThanMs: d.stuckAfterMs }) };
    },
  },
  surveillance: {
    name: "surveillance",
    label: "Surveillance evaluation",
    policy: "stately",
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
    schedule: () => cronEvery(60_000),
    onRequest: true,
    async run(_data, d) {
      return { output: { ...(await evaluateNewEvents(d.db.engine)) } };
    },
  },
  // A pass every MAIL_PASS_MS for the run's slice (48 s): a mail leaves within seconds of being due.
  statusMail: loopJob(
    "status-mail",
    "Status mail outbox",
    (d) => !!d.mail,
    async (d, _state, signal) => (d.mail ? { ...(await runOutboxLoop(d.mail, signal)) } : { skipped: "mail is off" }),
  ),
  // Every account's statement of a period into one zip (server/statements/bulk.ts): sent when a run is asked for.
  statements: runsJob("statements", "Statements (bulk)", 10, hasOpenStatementRun, (d, signal) =>
    runStatementRuns(d.db.engine, signal, d.log),
  ),
  // The end-of-day reconciliation (server/reconciliation/run.ts): after each market's close on weekdays (HK and CN at
  // 08:10 UTC, US at 21:10 UTC, half past the close in summer time), and when a run is asked for on its page.
  eodReconciliation: {
    name: "eod-reconciliation",
    label: "End-of-day reconciliation",
    policy: "stately",
    retryLimit: 2,
    retryDelay: 60,
    retryBackoff: true,
    // A run reads two assets calls an account within that group's budget (2 every 2 s against the real upstream: about
    // 35 minutes for 1,000 accounts) and starts again from its beginning when cut short: its slice is long.
    expireInSeconds: 4 * 3600,
    schedule: () => "10 8,21 * * 1-5",
    onRequest: true,
    dueAtStart: (d) => hasOpenReconciliationRun(d.db.engine),
    async request(engine, by) {
      const run = await queueReconciliationRun(engine, "request", by);
      return { requestedBy: by, requestedAt: run.requestedAt };
    },
    async run(data, d, _state, signal) {
      // The schedule's send queues its run here, unless a run was open when it was sent or one finished since (a
      // request queued its own, and a send that waited behind it is answered by it; a run cut short and sent again
      // resumes the one it was working).
      const answered = data.sentAt ? hasReconciliationRunSince(d.db.engine, data.sentAt) : hasOpenReconciliationRun(d.db.engine);
      if (!data.requestedBy && !(await answered)) await queueReconciliationRun(d.db.engine, "schedule", null);
      const { intervalMs: _interval, ...a } = d.activities;
      const outcome = await runReconciliations(
        { engine: d.db.engine, client: d.client, log: d.log, sweep: { ...a, engine: d.db.engine, client: d.client, log: d.log } },
        signal,
      );
      return { again: outcome.again, output: { runs: outcome.runs } };
    },
  },
  // Scheduled reports (server/reports/run.ts): every minute, the schedules' due slots become runs, each rendered and
  // queued as one outbox mail a recipient (the status-mail job sends them); "Run now" on Admin → Reports sends it.
  reports: runsJob("reports", "Scheduled reports", 30, hasOpenReportRun, (d, signal) =>
    runReports({ engine: d.db.engine, log: d.log }, signal),
  ),
} satisfies Record<string, JobDefinition>;

export const JOB_LIST: JobDefinition[] = Object.values(JOBS);
export const jobByName = (name: string): JobDefinition | undefined => JOB_LIST.find((j) => j.name === name);
