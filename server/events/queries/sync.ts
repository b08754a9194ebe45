import "server-only";
import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import type { MovementKind } from "@/server/books/changes";
import { sqlLiterals } from "@/server/db/conditions";
import type { Queryable } from "@/server/db/engine";

/** The event path's SQL for detail calls, backfill and reconciliation: what to ask about, and the runs (sync_runs). */

export interface Run {
  id: string;
  cursor: string | null;
  done: number;
  checked: number;
  fixed: number;
  errors: number;
}

/** Orders that want a detail call, oldest first. */
export async function selectOrdersWantingDetail(
  q: Queryable,
  limit: number,
): Promise<{ account_id: string; client_order_id: string; s: string }[]> {
  const { rows } = await q.query<{ account_id: string; client_order_id: string; s: string }>(
    `SELECT account_id, client_order_id, last_event_seq::text AS s FROM brokerdesk.orders WHERE detail_wanted OR detail_at IS NULL ORDER BY id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** Nothing more to learn about the order (refused at placement, or gone). */
export async function markOrderDetailDone(q: Queryable, accountId: string, clientOrderId: string): Promise<void> {
  await q.query("UPDATE brokerdesk.orders SET detail_wanted = false, detail_at = now() WHERE account_id = $1 AND client_order_id = $2", [
    accountId,
    clientOrderId,
  ]);
}

const RUN_COLUMNS = "id::text, cursor, done, checked, fixed, errors";

export async function selectRunningRun(q: Queryable, job: string): Promise<Run | undefined> {
  const { rows } = await q.query<Run>(
    `SELECT ${RUN_COLUMNS} FROM brokerdesk.sync_runs WHERE job = $1 AND status = 'running' ORDER BY sync_runs.id DESC LIMIT 1`,
    [job],
  );
  return rows[0];
}

export async function insertRun(q: Queryable, job: string, requestedBy: string | null): Promise<Run> {
  const { rows } = await q.query<Run>(
    `INSERT INTO brokerdesk.sync_runs (job, status, requested_by) VALUES ($1, 'running', $2) RETURNING ${RUN_COLUMNS}`,
    [job, requestedBy],
  );
  return rows[0];
}

/** Whether a backfill is due: none has finished yet, or one (a gap's) is left running. */
export async function selectBackfillDue(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ due: boolean }>(
    `SELECT NOT EXISTS (SELECT 1 FROM brokerdesk.sync_runs WHERE job = 'backfill' AND status = 'done')
         OR EXISTS (SELECT 1 FROM brokerdesk.sync_runs WHERE job = 'backfill' AND status = 'running') AS due`,
  );
  return rows[0]?.due === true;
}

/**
 * Where a gap's window starts: the last stored event's time, else (nothing stored from the stream) the start of the
 * newest finished backfill; undefined when no backfill has finished (the first one, due, covers the window).
 */
export async function selectGapStart(q: Queryable): Promise<Date | undefined> {
  const { rows } = await q.query<{ from: Date | null }>(
    `SELECT (SELECT max(started_at) FROM brokerdesk.sync_runs WHERE job = 'backfill' AND status = 'done') AS from`,
  );
  const backfilled = rows[0]?.from ?? undefined;
  if (!backfilled) return undefined;
  const { rows: stream } = await q.query<{ at: Date | null }>(
    "SELECT last_event_at AS at FROM brokerdesk.event_stream WHERE id = 'upstream'",
  );
  return stream[0]?.at ?? backfilled;
}

/** Records a gap backfill from `from`, unless a backfill is running already (it goes on); true when recorded. */
export async function insertGapRun(q: Queryable, from: Date, requestedBy: string): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO brokerdesk.sync_runs (job, status, requested_by, gap_from)
     SELECT 'backfill', 'running', $2, $1 WHERE NOT EXISTS (SELECT 1 FROM brokerdesk.sync_runs WHERE job = 'backfill' AND status = 'running')
     RETURNING id`,
    [from, requestedBy],
  );
  return rows.length > 0;
}

export async function saveRunRow(
  q: Queryable,
  run: Run,
  patch: { status?: "done" | "failed"; total?: number; last_error?: string },
): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.sync_runs SET cursor = $2, done = $3, checked = $4, fixed = $5, errors = $6, total = COALESCE($7, total),
            status = COALESCE($8, status), finished_at = CASE WHEN $8::text IS NULL THEN finished_at ELSE now() END, last_error = COALESCE($9, last_error)
      WHERE id = $1`,
    [run.id, run.cursor, run.done, run.checked, run.fixed, run.errors, patch.total ?? null, patch.status ?? null, patch.last_error ?? null],
  );
}

export interface StaleMovement {
  kind: MovementKind;
  client_request_id: string;
  account_id: string;
  status: string;
  last_event_seq: string;
}

/** Movements of the given kinds, not in a final status, unchanged since `before` (at most 5000, oldest first). */
export async function selectStaleMovements(
  q: Queryable,
  before: Date,
  finalStatuses: readonly string[],
  kinds: readonly string[],
): Promise<StaleMovement[]> {
  const { rows } = await q.query<StaleMovement>(
    `SELECT kind, client_request_id, account_id, status, last_event_seq::text FROM brokerdesk.money_movements
      WHERE status <> ALL($1) AND updated_at < $2 AND kind = ANY($3) AND account_id IS NOT NULL ORDER BY updated_at LIMIT 5000`,
    [finalStatuses, before, kinds],
  );
  return rows;
}

/**
 * Completed FX requests whose bought amount or rate the books lack and whose detail was never read (their events
 * carry the request's fields only), oldest first. Literal conditions, so the partial index of migration 0190 serves it.
 */
export async function selectFxWantingDetail(q: Queryable, limit: number): Promise<StaleMovement[]> {
  const { rows } = await q.query<StaleMovement>(
    `SELECT kind, client_request_id, account_id, status, last_event_seq::text FROM brokerdesk.money_movements
      WHERE kind = 'FX_EXCHANGE' AND status = 'COMPLETED' AND (to_amount IS NULL OR fx_rate IS NULL) AND detail_at IS NULL
        AND account_id IS NOT NULL
      ORDER BY updated_at LIMIT $1`,
    [limit],
  );
  return rows;
}

/**
 * Orders in an open status unchanged since `before` (at most 5000, oldest first). The statuses are literal, so the
 * partial index of the open orders (migration 0200) serves it.
 */
export async function selectOpenOrdersBefore(
  q: Queryable,
  before: Date,
): Promise<{ account_id: string; client_order_id: string; s: string }[]> {
  const { rows } = await q.query<{ account_id: string; client_order_id: string; s: string }>(
    `SELECT account_id, client_order_id, last_event_seq::text AS s FROM brokerdesk.orders
      WHERE status IN (${sqlLiterals(OPEN_ORDER_STATUSES)}) AND updated_at < $1 ORDER BY updated_at LIMIT 5000`,
    [before],
  );
  return rows;
}
