import "server-only";
import type { JobStateName, JobsOverview } from "@/lib/jobs";
import type { Queryable } from "@/server/db/engine";
import { jobByName } from "./definitions";
import { queueCounts, recentJobs, type JobRow } from "./queries";

const RECENT = 100;
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A failed job's error as pg-boss stored it (the serialised error, or `{ value }` for a thrown non-error). */
function errorOf(row: JobRow): string | null {
  if (row.state !== "failed" && row.state !== "retry") return null;
  const o = (typeof row.output === "string" ? JSON.parse(row.output) : row.output) as Record<string, unknown> | null;
  if (!o) return null;
  const value = o.value as Record<string, unknown> | string | undefined;
  const message = o.message ?? (typeof value === "object" ? value?.message : value);
  return typeof message === "string" ? message : JSON.stringify(o).slice(0, 500);
}

/** The jobs page: every queue with its schedule and counts by state, and the latest jobs. */
export async function jobsOverview(db: Queryable): Promise<JobsOverview> {
  const [queues, jobs] = await Promise.all([queueCounts(db), recentJobs(db, RECENT)]);
  return {
    queues: queues.map((q) => ({
      name: q.name,
      label: jobByName(q.name)?.label ?? q.name,
      schedule: q.cron,
      policy: q.policy,
      retryLimit: q.retry_limit,
      expireInSeconds: q.expire_seconds,
      runOnRequest: jobByName(q.name)?.onRequest ?? false,
      counts: { created: q.created, retry: q.retry, active: q.active, completed: q.completed, failed: q.failed },
    })),
    jobs: jobs.map((j) => {
      const data = (typeof j.data === "string" ? JSON.parse(j.data) : j.data) as { requestedBy?: string } | null;
      const started = j.started_on ? new Date(j.started_on).getTime() : null;
      const ended = j.completed_on ? new Date(j.completed_on).getTime() : null;
      return {
        id: j.id,
        queue: j.name,
        label: jobByName(j.name)?.label ?? j.name,
        state: j.state as JobStateName,
        createdAt: iso(j.created_on)!,
        startedAt: iso(j.started_on),
        completedAt: iso(j.completed_on),
        durationMs: started !== null && ended !== null ? ended - started : null,
        retryCount: j.retry_count,
        retryLimit: j.retry_limit,
        requestedBy: typeof data?.requestedBy === "string" ? data.requestedBy : null,
        error: errorOf(j),
      };
    }),
    checkedAt: new Date().toISOString(),
  };
}
