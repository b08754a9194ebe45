import "server-only";
import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import { orderCurrency, type OrderChanges, type OrderFilter, type OrderPage, type OrderRow } from "@/lib/schemas/order-list";
import type { Queryable } from "@/server/db/engine";
import { sqlConditions, sqlLiterals } from "@/server/db/conditions";
import { keysetPage } from "@/server/db/keyset";
import { pagedCsvRows } from "@/lib/csv";

/**
 * The orders blotter over the desk's read model (never an upstream call): keyset pages newest first by `listed_at`
 * (migration 0011), each filter backed by an index with that order behind it so a page costs the same at any table
 * size; and the rows changed after a watermark (the last event seq the reader has), for live updates in place.
 */
const COLUMNS = `o.id::text AS id, o.account_id, o.client_order_id, o.order_id, o.combo_type, o.client_combo_order_id, o.symbol, o.market,
  o.instrument_type, o.side, o.order_type, o.time_in_force, o.quantity::text AS quantity, o.total_cash_amount::text AS total_cash_amount,
  o.filled_quantity::text AS filled_quantity, o.avg_filled_price::text AS avg_filled_price, o.limit_price::text AS limit_price,
  o.stop_price::text AS stop_price, o.status, o.placed_at, o.listed_at, o.updated_at, o.last_event_seq::text AS seq, o.submitted_by,
  (SELECT d.account_number FROM brokerdesk.account_directory d WHERE d.account_id = o.account_id) AS account_number`;

interface DbRow {
  id: string;
  account_id: string;
  account_number: string | null;
  client_order_id: string;
  order_id: string | null;
  combo_type: string | null;
  client_combo_order_id: string | null;
  symbol: string | null;
  market: string | null;
  instrument_type: string | null;
  side: string | null;
  order_type: string | null;
  time_in_force: string | null;
  quantity: string | null;
  total_cash_amount: string | null;
  filled_quantity: string;
  avg_filled_price: string | null;
  limit_price: string | null;
  stop_price: string | null;
  status: string;
  placed_at: Date | null;
  listed_at: Date;
  updated_at: Date;
  seq: string;
  submitted_by: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toOrderRow(r: DbRow): OrderRow {
  return {
    id: r.id,
    accountId: r.account_id,
    accountNumber: r.account_number,
    clientOrderId: r.client_order_id,
    orderId: r.order_id,
    comboType: r.combo_type,
    clientComboOrderId: r.client_combo_order_id,
    symbol: r.symbol,
    market: r.market,
    instrumentType: r.instrument_type,
    side: r.side,
    orderType: r.order_type,
    timeInForce: r.time_in_force,
    quantity: r.quantity,
    totalCashAmount: r.total_cash_amount,
    filledQuantity: r.filled_quantity,
    avgFilledPrice: r.avg_filled_price,
    limitPrice: r.limit_price,
    stopPrice: r.stop_price,
    status: r.status,
    placedAt: iso(r.placed_at),
    listedAt: iso(r.listed_at)!,
    updatedAt: iso(r.updated_at)!,
    seq: Number(r.seq),
    submittedBy: r.submitted_by,
  };
}

/** Midnight UTC of `day` (yyyy-mm-dd), or of today. */
function utcDay(day?: string, plusDays = 0): Date {
  const d = day ? new Date(`${day}T00:00:00.000Z`) : new Date(new Date().toISOString().slice(0, 10));
  return new Date(d.getTime() + plusDays * 86_400_000);
}

/** The filter as SQL conditions numbered from `$offset+1`; `now` fixes "today" for the quick views. */
export function orderConditions(f: OrderFilter, offset = 0, now = new Date()): { where: string[]; params: unknown[] } {
  const { where, params, add } = sqlConditions(offset);
  const eq = (column: string, value: string | undefined) => value !== undefined && add((p) => `o.${column} = ${p}`, value);
  // An account by its id or by the number a customer reads out, in any case (through the directory, as
  // selectAccountByIdOrNumber reads it: upper-cased, served by the index of migration 0230).
  if (f.account !== undefined) {
    add(
      (p) =>
        `o.account_id = COALESCE((SELECT d.account_id FROM brokerdesk.account_directory d WHERE upper(d.account_number) = upper(${p})
          ORDER BY (d.account_number = ${p}) DESC LIMIT 1), ${p})`,
      f.account,
    );
  }
  eq("symbol", f.symbol);
  eq("market", f.market);
  eq("instrument_type", f.type);
  eq("side", f.side);
  eq("status", f.status);
  eq("order_type", f.orderType);
  eq("combo_type", f.combo);
  eq("time_in_force", f.tif);
  if (f.from) add((p) => `o.listed_at >= ${p}`, utcDay(f.from));
  if (f.to) add((p) => `o.listed_at < ${p}`, utcDay(f.to, 1));
  const today = utcDay(now.toISOString().slice(0, 10));
  // Written as the partial index's own predicate, so the planner can use it.
  const open = `o.status IN (${sqlLiterals(OPEN_ORDER_STATUSES)})`;
  switch (f.view) {
    case "open":
      where.push(open);
      break;
    case "working_today":
      where.push(open);
      add((p) => `o.listed_at >= ${p}`, today);
      break;
    case "filled_today":
      where.push("o.status = 'FILLED'");
      add((p) => `o.filled_at >= ${p}`, today);
      break;
    case "failed":
      where.push("o.status IN ('FAILED', 'REJECTED')");
      break;
  }
  return { where, params };
}

/** The newest event the read model's orders include (the live watermark). */
export async function orderWatermark(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ s: string | null }>("SELECT max(last_event_seq)::text AS s FROM brokerdesk.orders");
  return Number(rows[0]?.s ?? 0);
}

export async function listOrders(q: Queryable, filter: OrderFilter, page: { cursor?: string; limit: number }): Promise<OrderPage> {
  // Read before the page: a change committed in between is sent again as a change, never lost.
  const watermark = await orderWatermark(q);
  const { where, params } = orderConditions(filter);
  const result = await keysetPage<DbRow>(q, {
    columns: COLUMNS,
    from: "brokerdesk.orders o",
    where,
    params,
    sort: "o.listed_at",
    tiebreak: "o.id",
    desc: true,
    cursor: page.cursor,
    limit: page.limit,
  });
  return { rows: result.rows.map(toOrderRow), nextCursor: result.nextCursor, watermark };
}

/** Orders whose upstream order id or client order id is `id` (the header's search), newest first. */
export async function findOrdersByAnyId(q: Queryable, id: string, limit = 5): Promise<OrderRow[]> {
  const { rows } = await q.query<DbRow>(
    `SELECT ${COLUMNS} FROM brokerdesk.orders o WHERE o.client_order_id = $1 OR o.order_id = $1 ORDER BY o.listed_at DESC, o.id DESC LIMIT $2`,
    [id, limit],
  );
  return rows.map(toOrderRow);
}

/**
 * Rows changed after `since`, oldest change first, whether or not they match the filter (a row on screen that
 * stops matching is updated and marked, not left stale); `matches` tells the two apart.
 */
export async function orderChangesSince(q: Queryable, filter: OrderFilter, since: number, limit = 500): Promise<OrderChanges> {
  const top = await orderWatermark(q);
  const { where, params } = orderConditions(filter, 1);
  const { rows } = await q.query<DbRow & { matches: boolean }>(
    `SELECT ${COLUMNS}, ${where.length ? where.join(" AND ") : "true"} AS matches FROM brokerdesk.orders o
      WHERE o.last_event_seq > $1 ORDER BY o.last_event_seq LIMIT ${Math.trunc(limit)}`,
    [since, ...params],
  );
  const full = rows.length === limit;
  return {
    rows: rows.map((r) => ({ ...toOrderRow(r), matches: !!r.matches })),
    // A full answer continues from its last row; otherwise everything up to the top has been seen.
    watermark: full ? Number(rows.at(-1)!.seq) : Math.max(top, since),
  };
}

export const ORDER_CSV_COLUMNS = [
  "Placed (UTC)",
  "Account",
  "Account number",
  "Client order id",
  "Order id",
  "Symbol",
  "Market",
  "Instrument",
  "Side",
  "Order type",
  "Time in force",
  "Combo",
  "Quantity",
  "Cash amount",
  "Filled",
  "Average price",
  "Limit price",
  "Stop price",
  "Currency",
  "Status",
  "Updated (UTC)",
];

/** Every order matching the filter, newest first, read 1,000 at a time as the download wants them. */
export function orderCsvRows(q: Queryable, filter: OrderFilter): AsyncGenerator<(string | number | null)[]> {
  return pagedCsvRows(
    (cursor) => listOrders(q, filter, { cursor, limit: 1000 }),
    (r) => [
      r.placedAt,
      r.accountId,
      r.accountNumber,
      r.clientOrderId,
      r.orderId,
      r.symbol,
      r.market,
      r.instrumentType,
      r.side,
      r.orderType,
      r.timeInForce,
      r.comboType,
      r.quantity,
      r.totalCashAmount,
      r.filledQuantity,
      r.avgFilledPrice,
      r.limitPrice,
      r.stopPrice,
      orderCurrency(r.market) ?? null,
      r.status,
      r.updatedAt,
    ],
  );
}
