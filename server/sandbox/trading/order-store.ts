import "server-only";
import type { Queryable } from "@/server/db/engine";
import { business } from "../errors";
import { Decimal, price, qty } from "../money";
import type { FeeLine } from "./fees";
import type { LegSpec } from "./options";

/** Order rows and their wire shapes (facts §5.2: groups of orders; place_time epoch ms + place_time_at ISO). */
export interface OrderRow {
  order_id: string;
  seq: string;
  account_id: string;
  client_order_id: string;
  group_id: string;
  client_combo_order_id: string | null;
  combo_type: string;
  parent_order_id: string | null;
  oco_key: string | null;
  status: string;
  reason: string | null;
  instrument_type: "EQUITY" | "OPTION";
  market: "US" | "HK" | "CN";
  symbol: string;
  currency: string;
  side: "BUY" | "SELL" | "SHORT";
  order_type: string;
  entrust_type: string;
  time_in_force: string;
  expire_date: string | null;
  trading_session: string;
  quantity: string | null;
  total_cash_amount: string | null;
  limit_price: string | null;
  stop_price: string | null;
  trailing_type: string | null;
  trailing_stop_step: string | null;
  trailing_limit_price_offset: string | null;
  trigger_price_type: string | null;
  triggered: boolean;
  watermark: string | null;
  filled_quantity: string;
  filled_value: string;
  commission: string;
  receivable_commission: string;
  fees: FeeLine[];
  held_amount: string;
  option_strategy: string | null;
  legs: (Omit<LegSpec, "ratio"> & { ratio: string })[] | null;
  extra: Record<string, unknown>;
  body_hash: string;
  place_time: Date;
  filled_time: Date | null;
  updated_at: Date;
}

export const OPEN = ["PENDING", "SUBMITTED", "PARTIAL_FILLED"];
const COLUMNS = `o.*, o.expire_date::text AS expire_date, o.seq::text AS seq`;

export async function findOrder(db: Queryable, accountId: string, clientOrderId: string, lock = false): Promise<OrderRow | undefined> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${COLUMNS} FROM sandbox.orders o WHERE account_id = $1 AND client_order_id = $2${lock ? " FOR UPDATE" : ""}`,
    [accountId, clientOrderId],
  );
  return rows[0];
}

export async function requireOrder(db: Queryable, accountId: string, clientOrderId: unknown, lock = false): Promise<OrderRow> {
  const row = typeof clientOrderId === "string" ? await findOrder(db, accountId, clientOrderId, lock) : undefined;
  if (!row) throw business("ORDER_NOT_FOUND", `No order with client_order_id ${String(clientOrderId ?? "")} in this account.`);
  return row;
}

export async function lockOrderById(db: Queryable, orderId: string): Promise<OrderRow | undefined> {
  const { rows } = await db.query<OrderRow>(`SELECT ${COLUMNS} FROM sandbox.orders o WHERE order_id = $1 FOR UPDATE`, [orderId]);
  return rows[0];
}

export async function groupOrders(db: Queryable, accountId: string, groupIds: string[]): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${COLUMNS} FROM sandbox.orders o WHERE account_id = $1 AND group_id = ANY($2) ORDER BY o.seq`,
    [accountId, groupIds],
  );
  return rows;
}

export async function workingOrders(db: Queryable, ids?: string[]): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${COLUMNS} FROM sandbox.orders o WHERE status IN ('SUBMITTED', 'PARTIAL_FILLED') AND ($1::text[] IS NULL OR order_id = ANY($1)) ORDER BY o.seq`,
    [ids ?? null],
  );
  return rows;
}

/**
 * Every working order except plain LIMIT orders (one leg, no trigger) the book does not reach: a BUY whose limit is
 * below the ask, a SELL or SHORT whose limit is above the bid. Those are the orders decide() leaves alone, so a
 * matching pass need not read them; an order without a quote in `books` is kept. `books` holds the market's quotes
 * by key (`OPT:<symbol>` for options, `<market>:<symbol>` otherwise, as SimMarket keys them).
 */
export async function movableOrders(db: Queryable, books: { key: string; bid: string; ask: string }[]): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${COLUMNS} FROM sandbox.orders o
       LEFT JOIN unnest($1::text[], $2::numeric[], $3::numeric[]) AS b(k, bid, ask)
         ON b.k = CASE WHEN o.instrument_type = 'OPTION' THEN 'OPT:' || o.symbol ELSE o.market || ':' || o.symbol END
      WHERE o.status IN ('SUBMITTED', 'PARTIAL_FILLED')
        AND NOT (o.order_type = 'LIMIT' AND (o.legs IS NULL OR jsonb_array_length(o.legs) <= 1)
                 AND coalesce(CASE WHEN o.side = 'BUY' THEN o.limit_price < b.ask ELSE o.limit_price > b.bid END, false))
      ORDER BY o.seq`,
    [books.map((b) => b.key), books.map((b) => b.bid), books.map((b) => b.ask)],
  );
  return rows;
}

/** Updates the given columns of one order; values are passed as they are (decimals as strings). */
export async function updateOrder(tx: Queryable, orderId: string, patch: Record<string, unknown>, at: Date): Promise<void> {
  const keys = Object.keys(patch);
  const sets = keys.map((k, i) => `${k} = $${i + 3}`);
  await tx.query(`UPDATE sandbox.orders SET ${[...sets, "updated_at = $2"].join(", ")} WHERE order_id = $1`, [
    orderId,
    at,
    ...keys.map((k) =>
      patch[k] !== null && typeof patch[k] === "object" && !(patch[k] instanceof Date) ? JSON.stringify(patch[k]) : patch[k],
    ),
  ]);
}

const dec = (v: string | null) => (v == null ? undefined : price(v));
const ms = (d: Date | null) => (d ? String(new Date(d).getTime()) : undefined);
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined);

export function orderView(o: OrderRow): Record<string, unknown> {
  const filled = new Decimal(o.filled_quantity);
  const view: Record<string, unknown> = {
    client_order_id: o.client_order_id,
    order_id: o.order_id,
    combo_type: o.combo_type,
    symbol: o.symbol,
    market: o.market,
    instrument_type: o.instrument_type,
    category: o.instrument_type === "OPTION" ? "US_OPTION" : `${o.market}_STOCK`,
    side: o.side,
    status: o.status,
    order_type: o.order_type,
    entrust_type: o.entrust_type,
    support_trading_session: o.trading_session,
    time_in_force: o.time_in_force,
    expire_date: o.expire_date ?? undefined,
    total_quantity: o.quantity == null ? undefined : qty(o.quantity),
    total_cash_amount: o.total_cash_amount == null ? undefined : price(o.total_cash_amount),
    filled_quantity: qty(filled),
    filled_price: filled.gt(0) ? price(new Decimal(o.filled_value).div(filled).div(multiplierOf(o)).toDecimalPlaces(4)) : "0.00",
    limit_price: dec(o.limit_price),
    stop_price: dec(o.stop_price),
    trailing_type: o.trailing_type ?? undefined,
    trailing_stop_step: dec(o.trailing_stop_step),
    trailing_limit_price_offset: dec(o.trailing_limit_price_offset),
    trigger_price_type: o.trigger_price_type ?? undefined,
    place_time: ms(o.place_time),
    place_time_at: iso(o.place_time),
    filled_time: ms(o.filled_time),
    filled_time_at: iso(o.filled_time),
    fill_time: ms(o.filled_time),
    commission: { actual_commission: price(o.commission), receivable_commission: price(o.receivable_commission) },
    actual_commission: price(o.commission),
    receivable_commission: price(o.receivable_commission),
    fees: o.fees,
    option_strategy: o.option_strategy ?? undefined,
    legs: o.legs?.map((l, i) => ({
      id: `${o.order_id}-${i + 1}`,
      instrument_type: l.instrument_type,
      market: "US",
      symbol: l.symbol,
      side: l.side,
      quantity: qty(l.ratio),
      ...(l.option
        ? {
            option_type: l.option.option_type,
            option_expire_date: l.option.expiry,
            strike_price: price(l.option.strike),
            option_contract_multiplier: String(l.multiplier),
            option_contract_deliverable: `${l.multiplier} ${l.option.root}`,
          }
        : {}),
    })),
    reason: o.reason ?? undefined,
    ...Object.fromEntries(Object.entries(o.extra).filter(([k]) => !k.startsWith("_"))),
  };
  return Object.fromEntries(Object.entries(view).filter(([, v]) => v !== undefined));
}

/** Value of one unit at a quoted price: options trade per share of a 100-share contract; multi-leg values are per unit. */
export const multiplierOf = (o: Pick<OrderRow, "instrument_type">) => (o.instrument_type === "OPTION" ? 100 : 1);

/** Groups rows (already in seq order) by group_id, the first order's client_order_id naming the group. */
export function groupView(rows: OrderRow[]): Record<string, unknown>[] {
  const groups = new Map<string, OrderRow[]>();
  for (const r of rows) groups.set(r.group_id, [...(groups.get(r.group_id) ?? []), r]);
  return [...groups.values()].map((g) => ({
    client_order_id: g[0].group_id,
    ...(g[0].client_combo_order_id ? { client_combo_order_id: g[0].client_combo_order_id } : {}),
    combo_type: g[0].combo_type,
    orders: g.map(orderView),
  }));
}
