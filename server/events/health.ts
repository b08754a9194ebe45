import "server-only";
import type { Queryable } from "@/server/db/engine";
import type { StreamHealth, StreamState, StreamStatus, SyncRunView } from "@/lib/stream-health";

/**
 * The event stream's health as the desk shows it, from the consumer's row and the stored events.
 * - `no-consumer`: no consumer has written its heartbeat (every 2 s) for 10 s;
 * - `down`: the consumer runs but the stream is not connected;
 * - `silent`: connected, but neither an event nor a ping for longer than the silence limit;
 * - `connected`.
 */
const HEARTBEAT_STALE_MS = 10_000;

interface Row {
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

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : undefined);
const ms = (d: Date | null | undefined) => (d ? new Date(d).getTime() : 0);

function state(r: Row, silenceMs: number): { state: StreamState; since?: string } {
  const now = ms(r.now);
  if (now - ms(r.heartbeat_at) > HEARTBEAT_STALE_MS) return { state: "no-consumer", since: iso(r.heartbeat_at) };
  if (!r.connected) return { state: "down", since: iso(r.disconnected_at) };
  const lastHeard = Math.max(ms(r.last_ping_at), ms(r.last_received_at), ms(r.connected_at));
  if (now - lastHeard > silenceMs) return { state: "silent", since: new Date(lastHeard).toISOString() };
  return { state: "connected", since: iso(r.connected_at) };
}

async function streamRow(db: Queryable): Promise<Row> {
  const { rows } = await db.query<Row>("SELECT *, now() AS now FROM brokerdesk.event_stream WHERE id = 'upstream'");
  return rows[0];
}

/** The state alone: what the banner across the desk needs (one row read). */
export async function streamStatus(db: Queryable, silenceMs: number): Promise<StreamStatus> {
  const r = await streamRow(db);
  const s = state(r, silenceMs);
  return { ...s, checkedAt: new Date(r.now).toISOString() };
}

async function lastRun(db: Queryable, job: "backfill" | "reconcile"): Promise<SyncRunView | undefined> {
  const { rows } = await db.query<{
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
  }>(
    "SELECT id::text, status, requested_by, started_at, finished_at, total, done, checked, fixed, errors, last_error FROM brokerdesk.sync_runs WHERE job = $1 ORDER BY sync_runs.id DESC LIMIT 1",
    [job],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.id,
    status: r.status,
    requestedBy: r.requested_by ?? undefined,
    startedAt: iso(r.started_at)!,
    finishedAt: iso(r.finished_at),
    total: r.total ?? undefined,
    done: r.done,
    checked: r.checked,
    fixed: r.fixed,
    errors: r.errors,
    lastError: r.last_error ?? undefined,
  };
}

/** Everything the stream-health page shows: a handful of indexed queries, no upstream call. */
export async function streamHealth(db: Queryable, silenceMs: number): Promise<StreamHealth> {
  const r = await streamRow(db);
  const { rows: perMinute } = await db.query<{ minute: Date; n: string }>(
    `SELECT m AS minute, count(e.seq)::text AS n
       FROM generate_series(date_trunc('minute', now()) - interval '59 minutes', date_trunc('minute', now()), interval '1 minute') AS m
       LEFT JOIN brokerdesk.upstream_events e ON e.source = 'stream' AND e.received_at >= m AND e.received_at < m + interval '1 minute'
      GROUP BY m ORDER BY m`,
  );
  const { rows: lag } = await db.query<{ p50: number | null; p99: number | null }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY d) AS p99
       FROM (SELECT extract(epoch FROM (received_at - occurred_at)) * 1000 AS d FROM brokerdesk.upstream_events
              WHERE source = 'stream' AND occurred_at IS NOT NULL AND received_at > now() - interval '5 minutes') x`,
  );
  return {
    ...state(r, silenceMs),
    checkedAt: new Date(r.now).toISOString(),
    leader: r.leader ?? undefined,
    heartbeatAt: iso(r.heartbeat_at),
    connected: r.connected,
    connectedAt: iso(r.connected_at),
    disconnectedAt: iso(r.disconnected_at),
    lastEventId: r.last_event_id ?? undefined,
    lastEventAt: iso(r.last_event_at),
    lastReceivedAt: iso(r.last_received_at),
    lastPingAt: iso(r.last_ping_at),
    reconnects: r.reconnects,
    unknownCount: Number(r.unknown_count),
    malformedCount: Number(r.malformed_count),
    lastError: r.last_error ?? undefined,
    lagP50Ms: lag[0]?.p50 == null ? undefined : Math.round(Number(lag[0].p50)),
    lagP99Ms: lag[0]?.p99 == null ? undefined : Math.round(Number(lag[0].p99)),
    eventsPerMinute: perMinute.map((m) => ({ minute: new Date(m.minute).toISOString(), count: Number(m.n) })),
    backfill: await lastRun(db, "backfill"),
    reconciliation: await lastRun(db, "reconcile"),
  };
}
