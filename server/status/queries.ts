import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The SQL of the status facility (server/status); its tables are migration 0090's. */

export interface SampleRow {
  module: string;
  bucket: Date;
  source: "call" | "probe";
  calls: number;
  failures: number;
  slow: number;
  latencyMsSum: number;
}

/** Adds a process's buckets to the shared ones (every instance's evidence counts). */
export async function addSamples(db: Queryable, rows: SampleRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO brokerdesk.status_samples (module, bucket, source, calls, failures, slow, latency_ms_sum)
     SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int[], $5::int[], $6::int[], $7::bigint[])
     ON CONFLICT (module, bucket, source) DO UPDATE SET
       calls = status_samples.calls + EXCLUDED.calls,
       failures = status_samples.failures + EXCLUDED.failures,
       slow = status_samples.slow + EXCLUDED.slow,
       latency_ms_sum = status_samples.latency_ms_sum + EXCLUDED.latency_ms_sum`,
    [
      rows.map((r) => r.module),
      rows.map((r) => r.bucket.toISOString()),
      rows.map((r) => r.source),
      rows.map((r) => r.calls),
      rows.map((r) => r.failures),
      rows.map((r) => r.slow),
      rows.map((r) => r.latencyMsSum),
    ],
  );
}

export interface TotalsRow {
  module: string;
  calls: string;
  failures: string;
  slow: string;
  latency_ms_sum: string;
  recent_calls: string;
  recent_failures: string;
  recent_slow: string;
  recent_latency_ms_sum: string;
}

/** The real calls of each module within the window, and within its latest part (`recentMs`). */
export async function selectCallTotals(db: Queryable, windowMs: number, recentMs: number): Promise<TotalsRow[]> {
  const { rows } = await db.query<TotalsRow>(
    `SELECT module, sum(calls)::text AS calls, sum(failures)::text AS failures, sum(slow)::text AS slow,
            sum(latency_ms_sum)::text AS latency_ms_sum,
            COALESCE(sum(calls) FILTER (WHERE bucket >= now() - make_interval(secs => $2::double precision / 1000)), 0)::text AS recent_calls,
            COALESCE(sum(failures) FILTER (WHERE bucket >= now() - make_interval(secs => $2::double precision / 1000)), 0)::text AS recent_failures,
            COALESCE(sum(slow) FILTER (WHERE bucket >= now() - make_interval(secs => $2::double precision / 1000)), 0)::text AS recent_slow,
            COALESCE(sum(latency_ms_sum) FILTER (WHERE bucket >= now() - make_interval(secs => $2::double precision / 1000)), 0)::text AS recent_latency_ms_sum
       FROM brokerdesk.status_samples
      WHERE source = 'call' AND bucket >= now() - make_interval(secs => $1::double precision / 1000)
      GROUP BY module`,
    [windowMs, recentMs],
  );
  return rows;
}

export interface ProbeRow {
  module: string;
  calls: number;
  failures: number;
  latency_ms_sum: string;
  /** Within the latest `recentMs`: no new probe is due. */
  fresh: boolean;
}

/** Each module's latest probe bucket within the window. */
export async function selectLatestProbes(db: Queryable, windowMs: number, recentMs: number): Promise<ProbeRow[]> {
  const { rows } = await db.query<ProbeRow>(
    `SELECT DISTINCT ON (module) module, calls, failures, latency_ms_sum::text,
            bucket >= clock_timestamp() - make_interval(secs => $2::double precision / 1000) AS fresh
       FROM brokerdesk.status_samples
      WHERE source = 'probe' AND bucket >= now() - make_interval(secs => $1::double precision / 1000)
      ORDER BY module, bucket DESC`,
    [windowMs, recentMs],
  );
  return rows;
}

/** Evidence older than the window is of no use: removed by the evaluator. */
export async function deleteSamplesBefore(db: Queryable, windowMs: number): Promise<void> {
  await db.query("DELETE FROM brokerdesk.status_samples WHERE bucket < now() - make_interval(secs => $1::double precision / 1000)", [
    windowMs * 2,
  ]);
}

/**
 * Claims this period's evaluation: answers the claim time when the previous one is at least `intervalMs` old
 * (a little less, so a loop that wakes early is not skipped), else undefined (another instance evaluates).
 */
export async function claimEvaluation(db: Queryable, intervalMs: number): Promise<string | undefined> {
  const { rows } = await db.query<{ at: string }>(
    `UPDATE brokerdesk.status_evaluator SET evaluated_at = clock_timestamp()
      WHERE evaluated_at <= clock_timestamp() - make_interval(secs => $1::double precision / 1000)
      RETURNING evaluated_at::text AS at`,
    [intervalMs * 0.8],
  );
  return rows[0]?.at;
}

/** Locks the evaluator row for the write phase and tells whether `claim` is still the latest claim. */
export async function holdsClaim(tx: Queryable, claim: string): Promise<boolean> {
  const { rows } = await tx.query<{ at: string }>("SELECT evaluated_at::text AS at FROM brokerdesk.status_evaluator FOR UPDATE");
  return rows[0]?.at === claim;
}

export interface ModuleRow {
  module: string;
  state: string;
  since: Date;
  candidate: string | null;
  streak: number;
  evidence: Record<string, unknown>;
  evaluated_at: Date | null;
}

export async function selectModules(db: Queryable): Promise<ModuleRow[]> {
  const { rows } = await db.query<ModuleRow>("SELECT * FROM brokerdesk.status_modules");
  return rows;
}

export async function saveModule(
  db: Queryable,
  m: { module: string; state: string; changed: boolean; candidate: string | null; streak: number; evidence: unknown },
): Promise<void> {
  await db.query(
    `INSERT INTO brokerdesk.status_modules (module, state, since, candidate, streak, evidence, evaluated_at)
     VALUES ($1, $2, now(), $3, $4, $5, now())
     ON CONFLICT (module) DO UPDATE SET
       state = EXCLUDED.state,
       since = CASE WHEN $6::boolean THEN now() ELSE status_modules.since END,
       candidate = EXCLUDED.candidate, streak = EXCLUDED.streak, evidence = EXCLUDED.evidence, evaluated_at = now()`,
    [m.module, m.state, m.candidate, m.streak, JSON.stringify(m.evidence), m.changed],
  );
}

export interface IncidentRow {
  id: string;
  module: string;
  state: "degraded" | "outage";
  started_at: Date;
  escalated_at: Date | null;
  ended_at: Date | null;
  evidence: Record<string, unknown>;
}

const INCIDENT_COLUMNS = "id::text, module, state, started_at, escalated_at, ended_at, evidence";

export async function selectOpenIncident(db: Queryable, module: string): Promise<IncidentRow | undefined> {
  const { rows } = await db.query<IncidentRow>(
    `SELECT ${INCIDENT_COLUMNS} FROM brokerdesk.status_incidents WHERE module = $1 AND ended_at IS NULL`,
    [module],
  );
  return rows[0];
}

export async function openIncident(db: Queryable, module: string, state: string, evidence: unknown): Promise<void> {
  await db.query("INSERT INTO brokerdesk.status_incidents (module, state, started_at, evidence) VALUES ($1, $2, now(), $3)", [
    module,
    state,
    JSON.stringify(evidence),
  ]);
}

/** Sets an open incident's state and evidence; a change of state (degraded to outage) is its escalation. */
export async function updateIncident(db: Queryable, id: string, state: string, evidence: unknown): Promise<void> {
  await db.query(
    `UPDATE brokerdesk.status_incidents
     SET state = $2, evidence = $3, escalated_at = CASE WHEN state <> $2 THEN now() ELSE escalated_at END
     WHERE id = $1`,
    [id, state, JSON.stringify(evidence)],
  );
}

export async function closeIncident(db: Queryable, id: string, evidence: unknown): Promise<void> {
  await db.query("UPDATE brokerdesk.status_incidents SET ended_at = now(), evidence = $2 WHERE id = $1", [id, JSON.stringify(evidence)]);
}

export async function selectRecentIncidents(db: Queryable, perModule: number): Promise<IncidentRow[]> {
  const { rows } = await db.query<IncidentRow>(
    `SELECT ${INCIDENT_COLUMNS} FROM (
       SELECT i.*, row_number() OVER (PARTITION BY module ORDER BY started_at DESC, i.id DESC) AS n
         FROM brokerdesk.status_incidents i
        WHERE started_at > now() - interval '90 days' OR ended_at IS NULL) x
      WHERE n <= $1 ORDER BY started_at DESC`,
    [perModule],
  );
  return rows;
}

/** Counts one evaluation of a module on today's (UTC) bar. */
export async function countDay(db: Queryable, module: string, state: string): Promise<void> {
  await db.query(
    `INSERT INTO brokerdesk.status_daily (module, day, evaluations, operational, known)
     VALUES ($1, (now() AT TIME ZONE 'UTC')::date, 1, $2, $3)
     ON CONFLICT (module, day) DO UPDATE SET evaluations = status_daily.evaluations + 1,
       operational = status_daily.operational + EXCLUDED.operational, known = status_daily.known + EXCLUDED.known`,
    [module, state === "operational" ? 1 : 0, state === "unknown" ? 0 : 1],
  );
}

export interface DailyRow {
  module: string;
  day: string;
  operational: number;
  known: number;
}

export async function selectDaily(db: Queryable, days: number): Promise<{ today: string; rows: DailyRow[] }> {
  const { rows } = await db.query<DailyRow>(
    `SELECT module, day::text, operational, known FROM brokerdesk.status_daily
      WHERE day > (now() AT TIME ZONE 'UTC')::date - $1::int`,
    [days],
  );
  const {
    rows: [t],
  } = await db.query<{ today: string; now: Date }>("SELECT (now() AT TIME ZONE 'UTC')::date::text AS today");
  return { today: t.today, rows };
}
