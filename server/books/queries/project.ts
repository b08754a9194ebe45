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

/** An order's key in a batch: its account and client_order_id. */
const orderKey = (o: { account_id: string; client_order_id: string }) => `${o.account_id}\u0000${o.client_order_id}`;

/** Several changes of one order in a batch become one row: later fields win, a snapshot settles the detail. */
function foldOrders(changes: { seq: number; change: OrderChange }[]): FoldedOrder[] {
  const byKey = new Map<string, FoldedOrder>();
  for (const { seq, change: c } of changes) {
    const key = orderKey(c);
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

/** What an order's executions decide: its filled quantity, average price and commissions (unless a detail knew more). */
const ROLLED = ["filled_quantity", "avg_filled_price", "commission", "receivable_commission"] as const;

/**
 * An order's rolled-up columns over `base`, the value each would have without this batch's executions: the
 * executions' sum of quantities when it is more than the order's filled quantity, and then their average price and
 * commissions, which a detail call that knew of more fills keeps. `s.roll_*` is null for an order with no new fills.
 */
function rollUp(base: (c: (typeof ROLLED)[number]) => string): Record<(typeof ROLLED)[number], string> {
  const covers = `s.roll_q >= ${base("filled_quantity")}`;
  return {
    filled_quantity: `GREATEST(${base("filled_quantity")}, s.roll_q)`,
    avg_filled_price: `CASE WHEN ${covers} THEN round(s.roll_v / s.roll_q, 6) ELSE ${base("avg_filled_price")} END`,
    commission: `CASE WHEN ${covers} AND s.roll_c IS NOT NULL THEN s.roll_c ELSE ${base("commission")} END`,
    receivable_commission: `CASE WHEN ${covers} AND s.roll_rc IS NOT NULL THEN s.roll_rc ELSE ${base("receivable_commission")} END`,
  };
}

const isRolled = (c: string): c is (typeof ROLLED)[number] => (ROLLED as readonly string[]).includes(c);

/**
 * The batch's orders in one statement: an order new to the books is inserted; a stored one takes the fields of
 * events newer than its last (a field an event leaves out keeps its value); and an order whose executions the batch
 * stored (`rolled`) gets their roll-up (`rollUp`) in the same write, even when its own fields are not newer. One new
 * version of each order row a batch, with an entry in each of the table's indexes (an UPDATE after an upsert wrote
 * every filled order twice). The join with the stored orders is by their key: see lockReadModel.
 */
async function mergeOrders(tx: Queryable, rows: FoldedOrder[], rolled: Set<string>): Promise<void> {
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
    roll: rolled.has(orderKey(r)),
  }));
  const newer = rollUp((c) =>
    c === "filled_quantity" ? "GREATEST(COALESCE(s.filled_quantity, 0), o.filled_quantity)" : `COALESCE(s.${c}, o.${c})`,
  );
  const kept = rollUp((c) => `o.${c}`);
  const inserted = rollUp((c) => (c === "filled_quantity" ? "COALESCE(s.filled_quantity, 0)" : `s.${c}`));
  const insertValue = (c: string) => (isRolled(c) ? inserted[c] : c === "status" ? "COALESCE(s.status, 'UNKNOWN')" : `s.${c}`);
  await tx.query(
    `MERGE INTO brokerdesk.orders AS o
     USING (SELECT x.*, a.roll_q, a.roll_v, a.roll_c, a.roll_rc
              FROM jsonb_to_recordset($1::jsonb) AS x(account_id text, client_order_id text, ${recordsetColumns(cols, ORDER_TYPES)},
                   at timestamptz, seq bigint, want_detail boolean, detail_at timestamptz, roll boolean)
              LEFT JOIN LATERAL (SELECT sum(e.quantity) AS roll_q, sum(e.quantity * e.price) AS roll_v, sum(e.commission) AS roll_c,
                                        sum(e.receivable_commission) AS roll_rc
                                   FROM brokerdesk.executions e
                                  WHERE x.roll AND e.account_id = x.account_id AND e.client_order_id = x.client_order_id
                                 HAVING sum(e.quantity) > 0) a ON true) AS s
        ON o.account_id = s.account_id AND o.client_order_id = s.client_order_id
     WHEN MATCHED AND o.last_event_seq < s.seq THEN UPDATE SET
       ${cols.map((c) => `${c} = ${isRolled(c) ? newer[c] : `COALESCE(s.${c}, o.${c})`}`).join(", ")},
       updated_at = GREATEST(s.at, o.updated_at),
       last_event_seq = s.seq,
       detail_wanted = CASE WHEN s.detail_at IS NOT NULL THEN s.want_detail ELSE o.detail_wanted OR s.want_detail END,
       detail_at = COALESCE(s.detail_at, o.detail_at)
     WHEN MATCHED AND s.roll_q IS NOT NULL THEN UPDATE SET ${ROLLED.map((c) => `${c} = ${kept[c]}`).join(", ")}
     WHEN NOT MATCHED THEN
       INSERT (account_id, client_order_id, ${cols.join(", ")}, updated_at, last_event_seq, detail_wanted, detail_at)
       VALUES (s.account_id, s.client_order_id, ${cols.map(insertValue).join(", ")}, s.at, s.seq, s.want_detail, s.detail_at)`,
    [JSON.stringify(data)],
  );
}

/**
 * Stores the batch's executions (each once, by its key); answers how many were new and the orders to roll up (by
 * `orderKey`).
 */
async function insertExecutions(
  tx: Queryable,
  changes: { seq: number; change: OrderChange }[],
): Promise<{ count: number; rolled: Set<string> }> {
  const rows = changes
    .filter((c) => c.change.execution)
    .map(({ seq, change: c }) => ({ ...c.execution, seq, account_id: c.account_id, client_order_id: c.client_order_id }));
  if (!rows.length) return { count: 0, rolled: new Set() };
  const { rows: inserted } = await tx.query(
    `INSERT INTO brokerdesk.executions (execution_key, event_seq, account_id, client_order_id, order_id, symbol, side, quantity, price, commission, receivable_commission, fees, filled_at)
     SELECT execution_key, seq, account_id, client_order_id, order_id, symbol, side, quantity, price, commission, receivable_commission, fees, filled_at
       FROM jsonb_to_recordset($1::jsonb) AS x(execution_key text, seq bigint, account_id text, client_order_id text, order_id text, symbol text, side text,
            quantity numeric, price numeric, commission numeric, receivable_commission numeric, fees jsonb, filled_at timestamptz)
     ON CONFLICT (execution_key) DO NOTHING RETURNING id`,
    [JSON.stringify(rows)],
  );
  if (!inserted.length) return { count: 0, rolled: new Set() };
  // Once any fill is new, every order with a fill in the batch is rolled up from its stored executions.
  return { count: inserted.length, rolled: new Set(rows.map(orderKey)) };
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
  // The executions first, so that the orders' one write includes what they add up to.
  const executions = await insertExecutions(tx, orders);
  await mergeOrders(tx, foldOrders(orders), executions.rolled);
  await insertOrderEvents(tx, orders);
  await upsertMovements(tx, movements);
  // Surveillance evaluates these rows after the commit: the "order" and "movement" notices start its job (server/jobs).
  return { orders: orders.length, movements: movements.length, executions: executions.count, accounts: [...accounts], topics: [...topics] };
}

/** Empties the read model (not the stored events): the first half of a rebuild. */
export async function clearReadModel(tx: Queryable): Promise<void> {
  await tx.query(
    "TRUNCATE brokerdesk.orders, brokerdesk.order_events, brokerdesk.executions, brokerdesk.money_movements, brokerdesk.movement_events",
  );
}
