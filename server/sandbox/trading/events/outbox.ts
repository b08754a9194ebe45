import "server-only";
import type { Queryable } from "@/server/db/engine";

/**
 * The transactional event outbox: events are inserted in the transaction that changes the state they describe, so
 * a subscriber never sees an event for a rolled-back change nor misses one for a committed change. Inserts take a
 * transaction-scoped advisory lock, so outbox ids become visible in id order (on a PostgreSQL server two writers
 * could otherwise commit ids 8 and 7 in that order, and a subscriber resuming "after 8" would lose 7).
 */
export const EVENT_TYPES = ["ACCOUNT", "INSTRUMENT", "CORPORATE_ACTION", "TRADE", "FUNDING", "JOURNAL", "MASTER_DATA"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface OutboxEvent {
  event_type: EventType;
  account_id?: string | null;
  /** The second account an event concerns (a journal's to-account): subscribers filtered to it receive it too. */
  other_account_id?: string | null;
  payload: Record<string, unknown>;
}

export interface StoredEvent {
  id: string;
  event_type: EventType;
  account_id: string | null;
  payload: Record<string, unknown>;
  created_at: Date;
}

export async function emit(tx: Queryable, events: OutboxEvent[], at: Date): Promise<void> {
  if (!events.length) return;
  // One statement: the lock is a materialized CTE joined to every row, so it is held before the first row (and its
  // nextval id) exists.
  await tx.query(
    `WITH lock AS MATERIALIZED (SELECT pg_advisory_xact_lock(hashtext('sandbox:events')))
     INSERT INTO sandbox.events (event_type, account_id, other_account_id, payload, created_at)
     SELECT e->>'event_type', e->>'account_id', e->>'other_account_id', e->'payload', $2
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n), lock ORDER BY n`,
    [JSON.stringify(events.map((e) => ({ ...e, account_id: e.account_id ?? null, other_account_id: e.other_account_id ?? null }))), at],
  );
}

/**
 * Events after `afterId`, oldest first; `accounts` (when non-empty) keeps account-less events and those of those
 * accounts, as the event's account or its second account (a journal reaches both of its accounts' subscribers).
 */
export async function readAfter(
  db: Queryable,
  afterId: string,
  limit: number,
  f: { types?: string[]; accounts?: string[] },
): Promise<StoredEvent[]> {
  const { rows } = await db.query<StoredEvent & { id: string }>(
    `SELECT id::text AS id, event_type, account_id, payload, created_at FROM sandbox.events
      WHERE id > $1::bigint AND ($2::text[] IS NULL OR event_type = ANY($2)) AND ($3::text[] IS NULL OR account_id IS NULL OR account_id = ANY($3) OR other_account_id = ANY($3))
      ORDER BY events.id LIMIT $4`,
    [afterId, f.types?.length ? f.types : null, f.accounts?.length ? f.accounts : null, limit],
  );
  return rows;
}

export async function lastEventId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ id: string | null }>("SELECT max(id)::text AS id FROM sandbox.events");
  return rows[0]?.id ?? "0";
}

/** Funding and journal events for a finished part-1 request (hooked into requests.ts finish()). */
const REQUEST_EVENTS: Record<string, [EventType, string]> = {
  INSTANT_FUNDING: ["FUNDING", "INSTANT_FUNDING"],
  INSTANT_EXCHANGE: ["FUNDING", "INSTANT_EXCHANGE"],
  FX_EXCHANGE: ["FUNDING", "EXCHANGE"],
  CASH_JOURNAL: ["JOURNAL", "CASH_JOURNAL"],
  POSITION_JOURNAL: ["JOURNAL", "POSITION_JOURNAL"],
  ACCOUNT_CREATE: ["ACCOUNT", "ACCOUNT_CREATE"],
  ACCOUNT_UPDATE: ["ACCOUNT", "ACCOUNT_UPDATE"],
};

export async function emitRequestEvent(
  tx: Queryable,
  row: {
    kind: string;
    id: string;
    client_request_id: string;
    account_id: string;
    status: string;
    reason: string | null;
    payload: Record<string, unknown>;
  },
  at: Date,
): Promise<void> {
  const kind = REQUEST_EVENTS[row.kind];
  if (!kind) return;
  const payload: Record<string, unknown> = {
    biz_type: kind[1],
    request_id: row.id,
    client_request_id: row.client_request_id,
    account_id: row.account_id,
    status: row.status,
    ...(row.reason ? { reason: row.reason } : {}),
    ...row.payload,
  };
  if (kind[0] === "JOURNAL") payload.journal_type = row.kind === "CASH_JOURNAL" ? "CASH" : "POSITION";
  // A journal's request row is the from-account's; its to-account is in the request's fields.
  const other = kind[0] === "JOURNAL" ? row.payload.to_account : undefined;
  await emit(
    tx,
    [{ event_type: kind[0], account_id: row.account_id, other_account_id: typeof other === "string" ? other : null, payload }],
    at,
  );
}
