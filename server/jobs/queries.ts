import "server-only";
import type { Queryable } from "@/server/db/engine";
import { JOBS_SCHEMA } from "@/server/db/boss-db";

/** The SQL of server/jobs: the watermarks of jobs over the stored events, and the admin page's reads of pg-boss's tables. */

/** Whether an activities round started within the last `ms`. */
export async function sweptWithin(db: Queryable, ms: number): Promise<boolean> {
  const { rows } = await db.query(
    "SELECT 1 FROM brokerdesk.sync_runs WHERE job = 'activities' AND started_at > now() - make_interval(secs => $1::double precision / 1000) LIMIT 1",
    [ms],
  );
  return rows.length > 0;
}

/** Locks a watermark for the transaction and reads it, with the newest stored event's seq. */
export async function lockWatermark(tx: Queryable, name: string): Promise<{ from: number; to: number }> {
  const {
    rows: [w],
  } = await tx.query<{ seq: string; newest: string }>(
    `SELECT w.seq::text, (SELECT COALESCE(max(seq), 0) FROM brokerdesk.upstream_events)::text AS newest
       FROM brokerdesk.job_watermarks w WHERE w.name = $1 FOR UPDATE`,
    [name],
  );
  return { from: Number(w.seq), to: Number(w.newest) };
}

export async function saveWatermark(tx: Queryable, name: string, seq: number): Promise<void> {
  await tx.query("UPDATE brokerdesk.job_watermarks SET seq = $2, updated_at = now() WHERE name = $1", [name, seq]);
}

export async function readWatermark(db: Queryable, name: string): Promise<number> {
  const { rows } = await db.query<{ seq: string }>("SELECT seq::text FROM brokerdesk.job_watermarks WHERE name = $1", [name]);
  return Number(rows[0]?.seq ?? 0);
}

export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

export interface QueueCountsRow {
  name: string;
  policy: string;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  expire_seconds: number;
  cron: string | null;
  created: number;
  retry: number;
  active: number;
  completed: number;
  failed: number;
  cancelled: number;
}

/** Every queue but pg-boss's own, with its schedule and its jobs counted by state. */
export async function queueCounts(db: Queryable): Promise<QueueCountsRow[]> {
  const { rows } = await db.query<QueueCountsRow>(
    `SELECT q.name, q.policy, q.retry_limit, q.retry_delay, q.retry_backoff, q.expire_seconds, s.cron,
            count(j.id) FILTER (WHERE j.state = 'created')::int AS created, count(j.id) FILTER (WHERE j.state = 'retry')::int AS retry,
            count(j.id) FILTER (WHERE j.state = 'active')::int AS active, count(j.id) FILTER (WHERE j.state = 'completed')::int AS completed,
            count(j.id) FILTER (WHERE j.state = 'failed')::int AS failed, count(j.id) FILTER (WHERE j.state = 'cancelled')::int AS cancelled
       FROM ${JOBS_SCHEMA}.queue q
       LEFT JOIN ${JOBS_SCHEMA}.schedule s ON s.name = q.name
       LEFT JOIN ${JOBS_SCHEMA}.job j ON j.name = q.name
      WHERE q.name NOT LIKE '\\_\\_pgboss\\_\\_%'
      GROUP BY q.name, q.policy, q.retry_limit, q.retry_delay, q.retry_backoff, q.expire_seconds, s.cron
      ORDER BY q.name`,
  );
  return rows;
}

export interface JobRow {
  id: string;
  name: string;
  state: JobState;
  data: Record<string, unknown> | null;
  output: Record<string, unknown> | null;
  retry_count: number;
  retry_limit: number;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  start_after: Date;
}

/**
 * The latest jobs of the app's queues (waiting, retrying, running, completed, failed), newest first, from pg-boss's job
 * table (a finished job stays there a day, then moves to its archive).
 */
export async function recentJobs(db: Queryable, limit: number): Promise<JobRow[]> {
  const { rows } = await db.query<JobRow>(
    `SELECT id::text, name, state::text AS state, data, output, retry_count, retry_limit, created_on, started_on, completed_on, start_after
       FROM ${JOBS_SCHEMA}.job
      WHERE name NOT LIKE '\\_\\_pgboss\\_\\_%'
      ORDER BY COALESCE(started_on, created_on) DESC, id DESC
      LIMIT $1`,
    [limit],
  );
  return rows;
}

/** One job's queue and state (the retry action checks it is failed). */
export async function jobById(db: Queryable, id: string): Promise<Pick<JobRow, "id" | "name" | "state"> | undefined> {
  const { rows } = await db.query<Pick<JobRow, "id" | "name" | "state">>(
    `SELECT id::text, name, state::text AS state FROM ${JOBS_SCHEMA}.job WHERE id = $1::uuid`,
    [id],
  );
  return rows[0];
}
