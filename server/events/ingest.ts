import "server-only";
import { createHash } from "node:crypto";
import type { Engine, Queryable } from "@/server/db/engine";
import { notifyChange } from "./channel";
import { interpret, parseEnvelope, type Change, type Envelope, type Source } from "./changes";
import { clearReadModel, project, type ProjectionSummary, type SeqChange } from "./project";

/**
 * Stores events once and projects them, in one transaction: the event rows (unique on the upstream id), the read
 * model, the stream's resume point and the change notice (NOTIFY, delivered on commit). A crash leaves all of it or
 * none; a repeated event is skipped by the unique id, so it is never stored or applied twice.
 */
/** Ingests are serialised so that event seqs commit in order: projection compares seqs. */
const INGEST_LOCK = "brokerdesk:read-model";

export interface Incoming {
  event_id: string;
  source: Source;
  event_type: string;
  biz_type?: string;
  account_id?: string;
  occurred_at?: string;
  payload?: Record<string, unknown>;
  raw?: string;
  outcome: "projected" | "stored" | "unknown" | "malformed";
  changes: Change[];
}

/** A stream message's payload as an event to store: parsed and interpreted, or kept raw as malformed. */
export function fromStream(raw: string): Incoming {
  const parsed = parseEnvelope(raw);
  if (!parsed.ok) {
    return {
      event_id: `malformed:${createHash("sha256").update(raw).digest("hex").slice(0, 40)}`,
      source: "stream",
      event_type: "MALFORMED",
      raw: raw.slice(0, 10_000),
      outcome: "malformed",
      changes: [],
    };
  }
  return fromEnvelope(parsed.envelope, "stream");
}

export function fromEnvelope(envelope: Envelope, source: Source): Incoming {
  // An event without a time gets its arrival time, stored, so that a rebuild replays it with the same time.
  const e = envelope.timestamp ? envelope : { ...envelope, timestamp: new Date().toISOString() };
  const { outcome, changes } = interpret(e);
  const biz = e.payload.biz_type;
  return {
    event_id: source === "stream" ? e.id : `${source}:${e.id}`,
    source,
    event_type: e.event_type,
    biz_type: typeof biz === "string" ? biz : undefined,
    account_id: e.account_id,
    occurred_at: e.timestamp,
    payload: e.payload,
    outcome,
    changes,
  };
}

export interface IngestResult extends ProjectionSummary {
  stored: number;
  duplicates: number;
  lastSeq?: number;
}

export interface StreamPosition {
  lastEventId?: string;
  lastEventAt?: string;
}

async function store(tx: Queryable, items: Incoming[]): Promise<Map<string, number>> {
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

/**
 * `guard` runs first, under the lock: when it answers false nothing is stored (a snapshot taken before an event
 * that has since been applied must not overwrite it).
 */
export async function ingest(
  engine: Engine,
  items: Incoming[],
  position?: StreamPosition,
  guard?: (tx: Queryable) => Promise<boolean>,
): Promise<IngestResult> {
  return engine.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [INGEST_LOCK]);
    if (guard && !(await guard(tx))) return { orders: 0, movements: 0, executions: 0, accounts: [], topics: [], stored: 0, duplicates: 0 };
    const seqs = items.length ? await store(tx, items) : new Map<string, number>();
    const fresh = items.filter((i) => seqs.has(i.event_id));
    const batch: SeqChange[] = fresh.flatMap((i) => i.changes.map((change) => ({ seq: seqs.get(i.event_id)!, change })));
    const summary = await project(tx, batch);
    const count = (o: Incoming["outcome"]) => fresh.filter((i) => i.outcome === o).length;
    if (position || count("unknown") || count("malformed")) {
      await tx.query(
        `UPDATE brokerdesk.event_stream SET last_event_id = COALESCE($1, last_event_id), last_event_at = COALESCE($2::timestamptz, last_event_at),
                last_received_at = CASE WHEN $1::text IS NULL THEN last_received_at ELSE now() END,
                unknown_count = unknown_count + $3, malformed_count = malformed_count + $4
          WHERE id = 'upstream'`,
        [position?.lastEventId ?? null, position?.lastEventAt ?? null, count("unknown"), count("malformed")],
      );
    }
    if (summary.topics.length) {
      await notifyChange(tx, { topics: summary.topics, accounts: summary.accounts.slice(0, 20) });
    }
    const lastSeq = seqs.size ? Math.max(...seqs.values()) : undefined;
    return { ...summary, stored: seqs.size, duplicates: items.length - seqs.size, lastSeq };
  });
}

/** Rebuilds the read model from the stored events, in seq order, in batches. Returns the number of events replayed. */
export async function rebuildReadModel(engine: Engine, batchSize = 2000): Promise<number> {
  await engine.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [INGEST_LOCK]);
    await clearReadModel(tx);
  });
  let after = 0;
  let replayed = 0;
  for (;;) {
    const { rows } = await engine.query<{
      seq: string;
      event_id: string;
      source: Source;
      event_type: string;
      occurred_at: Date | null;
      account_id: string | null;
      payload: Record<string, unknown> | null;
    }>(
      `SELECT seq::text, event_id, source, event_type, occurred_at, account_id, payload FROM brokerdesk.upstream_events
        WHERE seq > $1 AND payload IS NOT NULL ORDER BY seq LIMIT $2`,
      [after, batchSize],
    );
    if (!rows.length) return replayed;
    const batch: SeqChange[] = rows.flatMap((r) =>
      interpret({
        id: r.event_id,
        event_type: r.event_type,
        timestamp: r.occurred_at ? new Date(r.occurred_at).toISOString() : undefined,
        account_id: r.account_id ?? undefined,
        payload: r.payload!,
      }).changes.map((change) => ({ seq: Number(r.seq), change })),
    );
    await engine.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [INGEST_LOCK]);
      await project(tx, batch);
    });
    after = Number(rows[rows.length - 1].seq);
    replayed += rows.length;
  }
}
