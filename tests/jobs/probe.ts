// A probe job for the job system's tests, and (run as a script) a worker process that takes one and hangs in it:
// `tsx --conditions=react-server tests/jobs/probe.ts <database url>`.
import type { BrokerClient } from "@/server/broker/client";
import { prepareAppDb, type AppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";
import type { JobDefinition, JobDeps } from "@/server/jobs/definitions";
import { startJobs, type JobsHandle } from "@/server/jobs/runtime";

export const PROBE_QUEUE = "probe";

/** Its side effects: one `attempt` row each time a run starts, one `effect` row each time one finishes its work. */
export const PROBE_TABLE =
  "CREATE TABLE IF NOT EXISTS public.probe_marks (job_id text NOT NULL, mark text NOT NULL, at timestamptz NOT NULL DEFAULT now())";

/** A probe job: `hang` never finishes its work (a worker stuck mid-job), else it finishes at once. */
export function probeJob(
  o: { hang?: boolean; expireInSeconds?: number; policy?: "singleton" | "stately"; retryLimit?: number } = {},
): JobDefinition {
  return {
    name: PROBE_QUEUE,
    label: "Probe",
    policy: o.policy ?? "stately",
    retryLimit: o.retryLimit ?? 2,
    retryDelay: 0,
    retryBackoff: false,
    expireInSeconds: o.expireInSeconds ?? 8,
    onRequest: false,
    async run(data, d) {
      const id = String((data as { id?: string }).id);
      await d.db.engine.query("INSERT INTO public.probe_marks (job_id, mark) VALUES ($1, 'attempt')", [id]);
      if (o.hang) await new Promise(() => undefined);
      await d.db.engine.query("INSERT INTO public.probe_marks (job_id, mark) VALUES ($1, 'effect')", [id]);
      return {};
    },
  };
}

/** Deps for jobs that call no upstream (the probe, surveillance). */
export function probeDeps(db: AppDb): JobDeps {
  return {
    db,
    client: {} as BrokerClient,
    log: () => undefined,
    backfillDays: 1,
    reconcileAfterMs: 0,
    reconcileIntervalMs: 3_600_000,
    activities: { intervalMs: 3_600_000 },
  };
}

export function startProbeJobs(db: AppDb, job: JobDefinition, o: { maintenanceIntervalSeconds?: number } = {}): Promise<JobsHandle> {
  return startJobs({ deps: probeDeps(db), jobs: [job], pollingIntervalSeconds: 0.5, ...o });
}

// As a script: the worker that hangs. It prints "ready" once it works the queue.
if (process.argv[1]?.endsWith("probe.ts") && process.argv[2]) {
  const db = await prepareAppDb(await openEngine({ url: process.argv[2], poolSize: 3 }));
  await startProbeJobs(db, probeJob({ hang: true }));
  console.log("ready");
}
