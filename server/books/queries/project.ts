import "server-only";
import type { Queryable } from "@/server/db/engine";
import { MOVEMENT_COLUMNS, ORDER_COLUMNS, type Change, type MovementChange, type OrderChange } from "../changes";

/**
 * Folds the changes of a batch of stored events into the read model with a handful of set-based statements (one per
 * table, whatever the batch size). Idempotent: rows carry the seq of the last event applied and an older or equal
 * seq changes nothing; executions, order events and movement events are unique on their keys.
 */
export interface SeqChange {
  seq: number;
  change: Change;
}

export interface ProjectionSummary {
  orders: number;
  movements: number;
  executions: number;
  accounts: string[];
  topics: string[];
}

const ORDER_TYPES: Record<string, string> = {
  quantity: "numeric",
  total_cash_amount: "numeric",
  filled_quantity: "numeric",
  avg_filled_price: "numeric",
  limit_price: "numeric",
  stop_price: "numeric",
  commission: "numeric",
  receivable_commission: "numeric",
  legs: "jsonb",
  fees: "jsonb",
  placed_at: "timestamptz",
  filled_at: "timestamptz",
};
const MOVEMENT_TYPES: Record<string, string> = { amount: "numeric", to_amount: "numeric", fx_rate: "numeric", quantity: "numeric" };
const recordsetColumns = (cols: readonly string[], types: Record<string, string>) =>
  cols.map((c) => `${c} ${types[c] ?? "text"}`).join(", ");

interface FoldedOrder {
  account_id: string;
  client_order_id: string;
  fields: Record<string, unknown>;
  at: string;
  seq: number;
  want_detail: boolean;
  detail_at: string | null;
}

/** Several changes of one order in a batch become one row: later fields win, a snapshot settles the detail. */
function foldOrders(changes: { seq: number; change: OrderChange }[]): FoldedOrder[] {
  const byKey = new Map<string, FoldedOrder>();
  for (const { seq, change: c } of changes) {
    const key = `${c.account_id}\u0000${c.client_order_id}`;
    const row = byKey.get(key) ?? {
      account_id: c.account_id,
      client_order_id: c.client_order_id,
      fields: {},
      at: c.at,
      seq,
      want_detail: false,
      detail_at: null,
    };
    Object.assign(row.fields, c.fields);
    row.seq = seq;
    row.at = c.at > row.at ? c.at : row.at;
    if (c.snapshot) {
      row.want_detail = false;
      row.detail_at = c.at;
    }
    row.want_detail ||= c.wantDetail;
    byKey.set(key, row);
  }
  return [...byKey.values()];
}

async function upsertOrders(tx: Queryable, rows: FoldedOrder[]): Promise<void> {
  if (!rows.length) return;
  const cols = ORDER_COLUMNS;
  const data = rows.map((r) => ({
    ...r.fields,
    account_id: r.account_id,
    client_order_id: r.client_order_id,
    at: r.at,
    seq: r.seq,
    want_detail: r.want_detail,
    detail_at: r.detail_at,
  }));
  const set = cols.map((c) =>
    c === "filled_quantity"
      ? "filled_quantity = GREATEST(EXCLUDED.filled_quantity, o.filled_quantity)"
      : `${c} = COALESCE(EXCLUDED.${c}, o.${c})`,
  );
  await tx.query(
    `INSERT INTO brokerdesk.orders AS o (account_id, client_order_id, ${cols.join(", ")}, updated_at, last_event_seq, detail_wanted, detail_at)
     SELECT account_id, client_order_id, ${cols.map((c) => (c === "status" ? "COALESCE(status, 'UNKNOWN')" : c === "filled_quantity" ? "COALESCE(filled_quantity, 0)" : c)).join(", ")},
            at, seq, want_detail, detail_at
       FROM jsonb_to_recordset($1::jsonb) AS x(account_id text, client_order_id text, ${recordsetColumns(cols, ORDER_TYPES)},
            at timestamptz, seq bigint, want_detail boolean, detail_at timestamptz)
     ON CONFLICT (account_id, client_order_id) DO UPDATE SET ${set.join(", ")},
       updated_at = GREATEST(EXCLUDED.updated_at, o.updated_at),
       last_event_seq = EXCLUDED.last_event_seq,
       detail_wanted = CASE WHEN EXCLUDED.detail_at IS NOT NULL THEN EXCLUDED.detail_wanted ELSE o.detail_wanted OR EXCLUDED.detail_wanted END,
       detail_at = COALESCE(EXCLUDED.detail_at, o.detail_at)
     WHERE o.last_event_seq < EXCLUDED.last_event_seq`,
    [JSON.stringify(data)],
  );
}

async function insertExecutions(tx: Queryable, changes: { seq: number; change: OrderChange }[]): Promise<number> {
  const rows = changes
    .filter((c) => c.change.execution)
    .map(({ seq, change: c }) => ({ ...c.execution, seq, account_id: c.account_id, client_order_id: c.client_order_id }));
  if (!rows.length) return 0;
  const { rows: inserted } = await tx.query(
    `INSERT INTO brokerdesk.executions (execution_key, event_seq, account_id, client_order_id, order_id, symbol, side, quantity, price, commission, receivable_commission, fees, filled_at)
     SELECT execution_key, seq, account_id, client_order_id, order_id, symbol, side, quantity, price, commission, receivable_commission, fees, filled_at
       FROM jsonb_to_recordset($1::jsonb) AS x(execution_key text, seq bigint, account_id text, client_order_id text, order_id text, symbol text, side text,
            quantity numeric, price numeric, commission numeric, receivable_commission numeric, fees jsonb, filled_at timestamptz)
     ON CONFLICT (execution_key) DO NOTHING RETURNING id`,
    [JSON.stringify(rows)],
  );
  if (!inserted.length) return 0;
  // Filled quantity, average price and commission follow the executions, unless a detail call knew more.
  const keys = [
    ...new Map(
      rows.map((r) => [`${r.account_id}\u0000${r.client_order_id}`, { account_id: r.account_id, client_order_id: r.client_order_id }]),
    ).values(),
  ];
  await tx.query(
    `UPDATE brokerdesk.orders o SET
        filled_quantity = GREATEST(o.filled_quantity, a.q),
        avg_filled_price = CASE WHEN a.q >= o.filled_quantity THEN round(a.v / a.q, 6) ELSE o.avg_filled_price END,
        commission = CASE WHEN a.q >= o.filled_quantity AND a.c IS NOT NULL THEN a.c ELSE o.commission END,
        receivable_commission = CASE WHEN a.q >= o.filled_quantity AND a.rc IS NOT NULL THEN a.rc ELSE o.receivable_commission END
       FROM (SELECT e.account_id, e.client_order_id, sum(e.quantity) AS q, sum(e.quantity * e.price) AS v, sum(e.commission) AS c, sum(e.receivable_commission) AS rc
               FROM brokerdesk.executions e
               JOIN jsonb_to_recordset($1::jsonb) AS k(account_id text, client_order_id text) USING (account_id, client_order_id)
              GROUP BY e.account_id, e.client_order_id) a
      WHERE o.account_id = a.account_id AND o.client_order_id = a.client_order_id AND a.q > 0`,
    [JSON.stringify(keys)],
  );
  return inserted.length;
}

async function insertOrderEvents(tx: Queryable, changes: { seq: number; change: OrderChange }[]): Promise<void> {
  if (!changes.length) return;
  const rows = changes.map(({ seq, change: c }) => ({
    seq,
    account_id: c.account_id,
    client_order_id: c.client_order_id,
    scene: c.scene,
    status: c.fields.status ?? null,
    filled_quantity: c.execution ? null : (c.fields.filled_quantity ?? null),
    reason: c.fields.reason ?? null,
    at: c.at,
  }));
  await tx.query(
    `INSERT INTO brokerdesk.order_events (event_seq, account_id, client_order_id, scene, status, filled_quantity, reason, at)
     SELECT seq, account_id, client_order_id, scene, status, filled_quantity, reason, at
       FROM jsonb_to_recordset($1::jsonb) AS x(seq bigint, account_id text, client_order_id text, scene text, status text, filled_quantity numeric, reason text, at timestamptz)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(rows)],
  );
}

async function upsertMovements(tx: Queryable, changes: { seq: number; change: MovementChange }[]): Promise<void> {
  if (!changes.length) return;
  const byKey = new Map<string, { kind: string; client_request_id: string; fields: Record<string, unknown>; at: string; seq: number }>();
  for (const { seq, change: c } of changes) {
    const key = `${c.movement}\u0000${c.client_request_id}`;
    const row = byKey.get(key) ?? { kind: c.movement, client_request_id: c.client_request_id, fields: {}, at: c.at, seq };
    Object.assign(row.fields, c.fields);
    row.seq = seq;
    row.at = c.at > row.at ? c.at : row.at;
    byKey.set(key, row);
  }
  const cols = MOVEMENT_COLUMNS;
  const data = [...byKey.values()].map((r) => ({
    ...r.fields,
    kind: r.kind,
    client_request_id: r.client_request_id,
    at: r.at,
    seq: r.seq,
  }));
  await tx.query(
    `INSERT INTO brokerdesk.money_movements AS m (kind, client_request_id, ${cols.join(", ")}, created_at, updated_at, last_event_seq)
     SELECT kind, client_request_id, ${cols.map((c) => (c === "status" ? "COALESCE(status, 'SUBMITTED')" : c)).join(", ")}, at, at, seq
       FROM jsonb_to_recordset($1::jsonb) AS x(kind text, client_request_id text, ${recordsetColumns(cols, MOVEMENT_TYPES)}, at timestamptz, seq bigint)
     ON CONFLICT (kind, client_request_id) DO UPDATE SET ${cols.map((c) => `${c} = COALESCE(EXCLUDED.${c}, m.${c})`).join(", ")},
       updated_at = GREATEST(EXCLUDED.updated_at, m.updated_at), last_event_seq = EXCLUDED.last_event_seq
     WHERE m.last_event_seq < EXCLUDED.last_event_seq`,
    [JSON.stringify(data)],
  );
  const timeline = changes
    .filter((c) => c.change.fields.status)
    .map(({ seq, change: c }) => ({
      seq,
      kind: c.movement,
      client_request_id: c.client_request_id,
      status: c.fields.status,
      reason: c.fields.reason ?? null,
      at: c.at,
    }));
  if (!timeline.length) return;
  await tx.query(
    `INSERT INTO brokerdesk.movement_events (event_seq, kind, client_request_id, status, reason, at)
     SELECT seq, kind, client_request_id, status, reason, at
       FROM jsonb_to_recordset($1::jsonb) AS x(seq bigint, kind text, client_request_id text, status text, reason text, at timestamptz)
     ON CONFLICT DO NOTHING`,
    [JSON.stringify(timeline)],
  );
}

export async function project(tx: Queryable, batch: SeqChange[]): Promise<ProjectionSummary> {
  const orders: { seq: number; change: OrderChange }[] = [];
  const movements: { seq: number; change: MovementChange }[] = [];
  const accounts = new Set<string>();
  const topics = new Set<string>();
  for (const { seq, change } of batch) {
    if (change.kind === "order") {
      orders.push({ seq, change });
      accounts.add(change.account_id);
      topics.add("order");
    } else if (change.kind === "movement") {
      movements.push({ seq, change });
      for (const a of [change.fields.account_id, change.fields.from_account, change.fields.to_account])
        if (typeof a === "string") accounts.add(a);
      topics.add("movement");
    } else {
      topics.add(change.topic);
      if (change.account_id) accounts.add(change.account_id);
    }
  }
  await upsertOrders(tx, foldOrders(orders));
  const executions = await insertExecutions(tx, orders);
  await insertOrderEvents(tx, orders);
  await upsertMovements(tx, movements);
  // Surveillance evaluates these rows after the commit: the "order" and "movement" notices start its job (server/jobs).
  return { orders: orders.length, movements: movements.length, executions, accounts: [...accounts], topics: [...topics] };
}

/** Empties the read model (not the stored events): the first half of a rebuild. */
export async function clearReadModel(tx: Queryable): Promise<void> {
  await tx.query(
    "TRUNCATE brokerdesk.orders, brokerdesk.order_events, brokerdesk.executions, brokerdesk.money_movements, brokerdesk.movement_events",
  );
}
