import "server-only";
import type { Queryable } from "@/server/db/engine";
import type { Source } from "../changes";

/** The event store's SQL: the stored events (brokerdesk.upstream_events), the ingest lock and the stream's position. */

/** An event as stored (what `ingest` makes of it, less its interpretation). */
export interface EventToStore {
  event_id: string;
  source: Source;
  event_type: string;
  biz_type?: string;
  account_id?: string;
  occurred_at?: string;
  payload?: Record<string, unknown>;
  raw?: string;
  outcome: string;
}

/** Ingests are serialised so that event seqs commit in order: projection compares seqs. */
const INGEST_LOCK = "brokerdesk:read-model";

/**
 * Takes the ingest lock, and for the rest of the transaction plans joins as nested loops. Every join of an ingest is
 * a batch's keys (a jsonb recordset, which the planner always takes for 100 rows) against a large table by its
 * index; left to its statistics, the planner hashed the whole table instead (a scan of every order or execution
 * stored, each batch) whenever the table held a few thousand rows or its statistics were behind, as during a burst.
 */
export async function lockReadModel(tx: Queryable): Promise<void> {
  await tx.query(
    "SELECT pg_advisory_xact_lock(hashtext($1)), set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true)",
    [INGEST_LOCK],
  );
}

/** Stores the events not stored yet (unique on event_id), in the given order; returns the new ones' seqs by event id. */
export async function storeEvents(tx: Queryable, items: EventToStore[]): Promise<Map<string, number>> {
  const rows = items.map((i, n) => ({ ...i, n, changes: undefined, occurred_at: i.occurred_at ?? null }));
  const { rows: inserted } = await tx.query<{ seq: string; event_id: string }>(
    `INSERT INTO brokerdesk.upstream_events (event_id, source, event_type, biz_type, account_id, occurred_at, payload, raw, outcome)
     SELECT event_id, source, event_type, biz_type, account_id,
            CASE WHEN occurred_at ~ '^\\d{4}-\\d{2}-\\d{2}' THEN occurred_at::timestamptz END, payload, raw, outcome
       FROM jsonb_to_recordset($1::jsonb) AS x(n int, event_id text, source text, event_type text, biz_type text, account_id text,
            occurred_at text, payload jsonb, raw text, outcome text)
      ORDER BY n
     ON CONFLICT (event_id) DO NOTHING RETURNING seq::text, event_id`,
    [JSON.stringify(rows)],
  );
  return new Map(inserted.map((r) => [r.event_id, Number(r.seq)]));
}

/** Moves the stream's resume point on (when given) and counts the unknown and malformed events stored. */
export async function updateStreamPosition(
  tx: Queryable,
  position: { lastEventId?: string; lastEventAt?: string },
  counts: { unknown: number; malformed: number },
): Promise<void> {
  await tx.query(
    `UPDATE brokerdesk.event_stream SET last_event_id = COALESCE($1, last_event_id), last_event_at = COALESCE($2::timestamptz, last_event_at),
            last_received_at = CASE WHEN $1::text IS NULL THEN last_received_at ELSE now() END,
            unknown_count = unknown_count + $3, malformed_count = malformed_count + $4
      WHERE id = 'upstream'`,
    [position.lastEventId ?? null, position.lastEventAt ?? null, counts.unknown, counts.malformed],
  );
}

export interface StoredEvent {
  seq: string;
  event_id: string;
  source: Source;
  event_type: string;
  occurred_at: Date | null;
  account_id: string | null;
  payload: Record<string, unknown> | null;
}

/** Up to `limit` stored events with a payload after `afterSeq`, in seq order (a rebuild's batch). */
export async function selectStoredEvents(q: Queryable, afterSeq: number, limit: number): Promise<StoredEvent[]> {
  const { rows } = await q.query<StoredEvent>(
    `SELECT seq::text, event_id, source, event_type, occurred_at, account_id, payload FROM brokerdesk.upstream_events
      WHERE seq > $1 AND payload IS NOT NULL ORDER BY upstream_events.seq LIMIT $2`,
    [afterSeq, limit],
  );
  return rows;
}
