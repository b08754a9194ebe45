import "server-only";
import type { Queryable } from "@/server/db/engine";
import { selectEventLag, selectEventsPerMinute, selectLastRun, selectStreamRow, type StreamRow as Row } from "./queries/health";
import type { StreamHealth, StreamState, StreamStatus, SyncRunView } from "@/lib/stream-health";

/**
 * The event stream's health as the desk shows it, from the consumer's row and the stored events.
 * - `no-consumer`: no consumer has written its heartbeat (with each renewal of its lease, every 1.5 s) for 10 s;
 * - `down`: the consumer runs but the stream is not connected;
 * - `silent`: connected, but neither an event nor a ping for longer than the silence limit;
 * - `connected`.
 */
const HEARTBEAT_STALE_MS = 10_000;

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

/** The state alone: what the banner across the desk needs (one row read). */
export async function streamStatus(db: Queryable, silenceMs: number): Promise<StreamStatus> {
  const r = await selectStreamRow(db);
  const s = state(r, silenceMs);
  return { ...s, checkedAt: new Date(r.now).toISOString() };
}

async function lastRun(db: Queryable, job: "backfill" | "reconcile"): Promise<SyncRunView | undefined> {
  const r = await selectLastRun(db, job);
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
  const r = await selectStreamRow(db);
  const perMinute = await selectEventsPerMinute(db);
  const lag = await selectEventLag(db);
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
    lagP50Ms: lag?.p50 == null ? undefined : Math.round(Number(lag.p50)),
    lagP99Ms: lag?.p99 == null ? undefined : Math.round(Number(lag.p99)),
    eventsPerMinute: perMinute.map((m) => ({ minute: new Date(m.minute).toISOString(), count: Number(m.n) })),
    backfill: await lastRun(db, "backfill"),
    reconciliation: await lastRun(db, "reconcile"),
  };
}
