import "server-only";
import type PgBoss from "pg-boss";
import type { Engine } from "@/server/db/engine";
import { STUCK_AFTER_MS } from "@/server/approvals/liveness";
import { onChange } from "@/server/notices/listen";
import { openBoss } from "@/server/db/boss-db";
import { JOB_LIST, JOBS, type JobData, type JobDefinition, type JobDeps, type JobState } from "./definitions";

/**
 * The job system of one process: pg-boss on the app's database (schema `brokerdesk_jobs`), the queues declared in
 * definitions.ts, their schedules, and a worker a queue. Several processes may run it on one PostgreSQL server:
 * pg-boss hands each job to one worker (SKIP LOCKED), its queue policies keep singletons across them, its
 * maintenance fails a job whose worker died once it expires, and the retry then resumes it.
 */
export interface JobsHandle {
  boss: PgBoss;
  /** Sends a job now; null when the queue's policy already holds one waiting. */
  send(name: string, data?: JobData): Promise<string | null>;
  stop(): Promise<void>;
}

export interface StartJobsOptions {
  deps: JobDeps;
  /** The queues this process works (default: all of definitions.ts). */
  jobs?: JobDefinition[];
  /** How often an idle worker asks for a job (default 2 s). */
  pollingIntervalSeconds?: number;
  /** pg-boss maintenance, incl. the expiry of jobs whose worker died (default every 30 s). */
  maintenanceIntervalSeconds?: number;
  /** Seconds a run stops before its job expires, to end at a resumable point (default a fifth of the expiry, at most 30). */
  sliceMarginSeconds?: number;
}

/** Creates (or updates) the queues and their schedules. Idempotent; any process may run it. */
export async function declareQueues(boss: PgBoss, jobs: JobDefinition[], deps?: JobDeps): Promise<void> {
  for (const job of jobs) {
    const options = {
      policy: job.policy,
      retryLimit: job.retryLimit,
      retryDelay: job.retryDelay,
      retryBackoff: job.retryBackoff,
      expireInSeconds: job.expireInSeconds,
    };
    await boss.createQueue(job.name, { name: job.name, ...options });
    await boss.updateQueue(job.name, { name: job.name, ...options });
    if (!deps) continue;
    if (job.schedule) await boss.schedule(job.name, job.schedule(deps), {});
    else await boss.unschedule(job.name);
  }
}

/** Starts the job system in this process: queues, schedules, workers, the event path's triggers, what is due at start. */
export async function startJobs(o: StartJobsOptions): Promise<JobsHandle> {
  const { deps } = o;
  const engine: Engine = deps.db.engine;
  const jobs = o.jobs ?? JOB_LIST;
  const boss = await openBoss(engine, { supervise: true, maintenanceIntervalSeconds: o.maintenanceIntervalSeconds });
  boss.on("error", (err: Error) => deps.log("warn", "job system error", { err: String(err.message ?? err) }));
  await declareQueues(boss, jobs, deps);

  const running = new Set<AbortController>();
  let stopping = false;
  const states = new Map<string, JobState>();
  const send = (name: string, data: JobData = {}) => boss.send(name, data);

  for (const job of jobs) {
    const state: JobState = new Map();
    states.set(job.name, state);
    const options = { batchSize: 1, pollingIntervalSeconds: o.pollingIntervalSeconds ?? 2, includeMetadata: true as const };
    await boss.work<JobData>(job.name, options, async ([j]) => {
      const slice = new AbortController();
      running.add(slice);
      // Fetched while the system stopped (pg-boss hands over what a fetch on its way returns): stopped at once.
      if (stopping) slice.abort(new Error("stopping"));
      const margin = o.sliceMarginSeconds ?? Math.min(30, Math.ceil(job.expireInSeconds / 5));
      const timer = setTimeout(() => slice.abort(new Error("time slice over")), Math.max(1, job.expireInSeconds - margin) * 1000);
      try {
        const outcome = await job.run({ ...j.data, sentAt: new Date(j.createdOn).toISOString() }, deps, state, slice.signal);
        // Stopped at its slice (or at shutdown): the rest is a new job, which resumes from the stored cursor.
        if (outcome.again) await send(job.name, j.data ?? {});
        else if (outcome.againAfterSeconds) await boss.send(job.name, {}, { startAfter: outcome.againAfterSeconds });
        return outcome.output ?? {};
      } catch (error) {
        deps.log("warn", `job ${job.name} failed`, { err: String((error as Error).message ?? error), retry: true });
        throw error;
      } finally {
        clearTimeout(timer);
        running.delete(slice);
      }
    });
  }

  // The event path's triggers: a projected batch of orders or movements asks for the surveillance evaluation and
  // order and movement details; a gap the consumer recorded, for the backfill. One send in flight a queue; a notice meanwhile sends once more after it (the queue's policy
  // keeps at most one waiting anyway).
  const names = new Set(jobs.map((j) => j.name));
  const trigger = coalesced((name: string) => send(name).then(() => undefined));
  const unlisten = await onChange(engine, (notice) => {
    const orders = notice.topics.includes("order");
    const movements = notice.topics.includes("movement");
    if ((orders || movements) && names.has(JOBS.surveillance.name)) trigger(JOBS.surveillance.name);
    if ((orders || movements) && names.has(JOBS.orderDetails.name)) trigger(JOBS.orderDetails.name);
    if (notice.topics.includes("backfill") && names.has(JOBS.backfill.name)) trigger(JOBS.backfill.name);
    // An approval's claim (or any decision): the expiry job looks once the claimed execution could count as stopped,
    // so a process that dies in the four-eyes window is found within seconds of the limit. The job is stored before
    // the process can die, and whichever process works the queue runs it.
    if (notice.topics.includes("approval") && names.has(JOBS.approvalsExpiry.name)) {
      const after = Math.ceil((deps.stuckAfterMs ?? STUCK_AFTER_MS) / 1000) + 1;
      void boss.send(JOBS.approvalsExpiry.name, {}, { startAfter: after }).catch(() => undefined);
    }
  });

  // What is due at start: the first backfill until it is done, a sweep round when none ran within its interval.
  for (const job of jobs) if (await job.dueAtStart?.(deps)) await send(job.name);

  return {
    boss,
    send,
    stop: async () => {
      unlisten();
      stopping = true;
      for (const c of running) c.abort(new Error("stopping"));
      // Waits for the runs to end at their resumable points; one still active after that is failed and retried later.
      await boss.stop({ graceful: true, timeout: 10_000, close: false });
    },
  };
}

/** Calls `fn(key)` with at most one call in flight a key; calls during it make one more call after it. */
function coalesced(fn: (key: string) => Promise<void>): (key: string) => void {
  const state = new Map<string, "running" | "again">();
  const go = (key: string): void => {
    const s = state.get(key);
    if (s) {
      state.set(key, "again");
      return;
    }
    state.set(key, "running");
    void fn(key)
      .catch(() => undefined)
      .finally(() => {
        const again = state.get(key) === "again";
        state.delete(key);
        if (again) go(key);
      });
  };
  return go;
}
