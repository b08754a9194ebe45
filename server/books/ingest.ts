import "server-only";
import type { Engine, Queryable } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { interpret, type Change, type Envelope, type Source } from "./changes";
import { lockReadModel, selectStoredEvents, storeEvents, updateStreamPosition, type EventToStore } from "./queries/ingest";
import { clearReadModel, project, type ProjectionSummary, type SeqChange } from "./queries/project";

/**
 * Stores events once and projects them, in one transaction: the event rows (unique on the upstream id), the read
 * model, the stream's resume point and the change notice (NOTIFY, delivered on commit). A crash leaves all of it or
 * none; a repeated event is skipped by the unique id, so it is never stored or applied twice.
 */
export interface Incoming extends EventToStore {
  outcome: "projected" | "stored" | "unknown" | "malformed";
  changes: Change[];
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

/** How many accounts one change notice names at most (about 2 kB of its payload). */
const NOTICE_ACCOUNTS = 50;

export interface StreamPosition {
  lastEventId?: string;
  lastEventAt?: string;
}

/**
 * `guard` runs first, under the lock: when it answers false nothing is stored (a snapshot taken before an event
 * that has since been applied must not overwrite it). What it writes commits with the events, or not at all.
 */
export async function ingest(
  engine: Engine,
  items: Incoming[],
  position?: StreamPosition,
  guard?: (tx: Queryable) => Promise<boolean>,
): Promise<IngestResult> {
  return engine.transaction(async (tx) => {
    await lockReadModel(tx);
    if (guard && !(await guard(tx))) return { orders: 0, movements: 0, executions: 0, accounts: [], topics: [], stored: 0, duplicates: 0 };
    const seqs = items.length ? await storeEvents(tx, items) : new Map<string, number>();
    const fresh = items.filter((i) => seqs.has(i.event_id));
    const batch: SeqChange[] = fresh.flatMap((i) => i.changes.map((change) => ({ seq: seqs.get(i.event_id)!, change })));
    const summary = await project(tx, batch);
    const count = (o: Incoming["outcome"]) => fresh.filter((i) => i.outcome === o).length;
    if (position || count("unknown") || count("malformed")) {
      await updateStreamPosition(tx, position ?? {}, { unknown: count("unknown"), malformed: count("malformed") });
    }
    // Every account the batch changed is named, NOTICE_ACCOUNTS a notice (a NOTIFY payload holds 8,000 bytes): a
    // catch-up batch of many accounts names the last ones too.
    for (let i = 0; summary.topics.length && (i === 0 || i < summary.accounts.length); i += NOTICE_ACCOUNTS) {
      await notifyChange(tx, { topics: summary.topics, accounts: summary.accounts.slice(i, i + NOTICE_ACCOUNTS) });
    }
    const lastSeq = seqs.size ? Math.max(...seqs.values()) : undefined;
    return { ...summary, stored: seqs.size, duplicates: items.length - seqs.size, lastSeq };
  });
}

/** Rebuilds the read model from the stored events, in seq order, in batches. Returns the number of events replayed. */
export async function rebuildReadModel(engine: Engine, batchSize = 2000): Promise<number> {
  await engine.transaction(async (tx) => {
    await lockReadModel(tx);
    await clearReadModel(tx);
  });
  let after = 0;
  let replayed = 0;
  for (;;) {
    const rows = await selectStoredEvents(engine, after, batchSize);
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
      await lockReadModel(tx);
      await project(tx, batch);
    });
    after = Number(rows[rows.length - 1].seq);
    replayed += rows.length;
  }
}
