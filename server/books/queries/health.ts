import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The stream's health as stored: the consumer's row (brokerdesk.event_stream), the stored events, the sync runs. */

export interface StreamRow {
  last_event_id: string | null;
  last_event_at: Date | null;
  last_received_at: Date | null;
  last_ping_at: Date | null;
  connected: boolean;
  connected_at: Date | null;
  disconnected_at: Date | null;
  reconnects: number;
  unknown_count: string;
  malformed_count: string;
  last_error: string | null;
  leader: string | null;
  heartbeat_at: Date | null;
  now: Date;
}

export async function selectStreamRow(q: Queryable): Promise<StreamRow> {
  const { rows } = await q.query<StreamRow>("SELECT *, now() AS now FROM brokerdesk.event_stream WHERE id = 'upstream'");
  return rows[0];
}

export interface SyncRunRow {
  id: string;
  status: string;
  requested_by: string | null;
  started_at: Date;
  finished_at: Date | null;
  total: number | null;
  done: number;
  checked: number;
  fixed: number;
  errors: number;
  last_error: string | null;
}

/** The latest run of a job. */
export async function selectLastRun(q: Queryable, job: string): Promise<SyncRunRow | undefined> {
  const { rows } = await q.query<SyncRunRow>(
    "SELECT id::text, status, requested_by, started_at, finished_at, total, done, checked, fixed, errors, last_error FROM brokerdesk.sync_runs WHERE job = $1 ORDER BY sync_runs.id DESC LIMIT 1",
    [job],
  );
  return rows[0];
}

/** Stream events received per minute over the last hour (empty minutes included). */
export async function selectEventsPerMinute(q: Queryable): Promise<{ minute: Date; n: string }[]> {
  const { rows } = await q.query<{ minute: Date; n: string }>(
    `SELECT m AS minute, count(e.seq)::text AS n
       FROM generate_series(date_trunc('minute', now()) - interval '59 minutes', date_trunc('minute', now()), interval '1 minute') AS m
       LEFT JOIN brokerdesk.upstream_events e ON e.source = 'stream' AND e.received_at >= m AND e.received_at < m + interval '1 minute'
      GROUP BY m ORDER BY m`,
  );
  return rows;
}

/** The lag from an event's time to its arrival over the last five minutes, p50 and p99 in ms. */
export async function selectEventLag(q: Queryable): Promise<{ p50: number | null; p99: number | null } | undefined> {
  const { rows } = await q.query<{ p50: number | null; p99: number | null }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY d) AS p99
       FROM (SELECT extract(epoch FROM (received_at - occurred_at)) * 1000 AS d FROM brokerdesk.upstream_events
              WHERE source = 'stream' AND occurred_at IS NOT NULL AND received_at > now() - interval '5 minutes') x`,
  );
  return rows[0];
}

/** Asks the consumer's leader to end its stream and subscribe again from the stored resume point. */
export async function setReconnectRequest(q: Queryable): Promise<void> {
  await q.query("UPDATE brokerdesk.event_stream SET reconnect_requested_at = now() WHERE id = 'upstream'");
}
