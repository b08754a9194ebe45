import "server-only";
import type { Queryable } from "@/server/db/engine";
import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import type { DeskExecution, DeskOrder } from "@/lib/schemas/instrument-desk";

/**
 * An instrument's orders and executions in the read model, for its page. An option counts under its underlying:
 * the expression is the one indexed by migration 0060 (kept the same, character for character, so the planner
 * uses the index).
 */
export const underlyingOf = (col: string) => `COALESCE(substring(${col} FROM '^([A-Z.]{1,6})\\s*[0-9]{6}[CP][0-9]{8}$'), ${col})`;

interface OrderDbRow {
  id: string;
  account_id: string;
  account_number: string | null;
  client_order_id: string;
  symbol: string | null;
  side: string | null;
  order_type: string | null;
  status: string;
  quantity: string | null;
  filled_quantity: string | null;
  limit_price: string | null;
  stop_price: string | null;
  listed_at: Date;
}

/** Open orders (pending, working, partly filled) of the symbol and its options, newest first. */
export async function selectOpenOrdersForSymbol(q: Queryable, market: string, symbol: string, limit = 50): Promise<DeskOrder[]> {
  const { rows } = await q.query<OrderDbRow>(
    `SELECT o.id::text AS id, o.account_id, d.account_number, o.client_order_id, o.symbol, o.side, o.order_type, o.status,
            o.quantity::text AS quantity, o.filled_quantity::text AS filled_quantity, o.limit_price::text AS limit_price,
            o.stop_price::text AS stop_price, o.listed_at
       FROM brokerdesk.orders o
       LEFT JOIN brokerdesk.account_directory d ON d.account_id = o.account_id
      WHERE ${underlyingOf("o.symbol")} = $1 AND o.market = $2 AND o.status = ANY($3::text[])
      ORDER BY o.listed_at DESC, o.id DESC
      LIMIT $4`,
    [symbol, market, [...OPEN_ORDER_STATUSES], limit],
  );
  return rows.map((r) => ({
    id: r.id,
    accountId: r.account_id,
    accountNumber: r.account_number,
    clientOrderId: r.client_order_id,
    symbol: r.symbol,
    side: r.side,
    orderType: r.order_type,
    status: r.status,
    quantity: r.quantity,
    filledQuantity: r.filled_quantity,
    limitPrice: r.limit_price,
    stopPrice: r.stop_price,
    listedAt: new Date(r.listed_at).toISOString(),
  }));
}

interface ExecutionDbRow {
  id: string;
  order_id: string;
  account_id: string;
  account_number: string | null;
  symbol: string | null;
  side: string | null;
  quantity: string;
  price: string;
  filled_at: Date;
}

/** The latest executions of the symbol and its options (among its latest four times `limit`, those of the market), each with the desk's order it filled. */
export async function selectRecentExecutionsForSymbol(q: Queryable, market: string, symbol: string, limit = 50): Promise<DeskExecution[]> {
  const { rows } = await q.query<ExecutionDbRow>(
    // The latest executions of the symbol first, one range of the underlying index (the planner, misjudging how
    // many rows the expression matches, would otherwise scan every execution and sort), then their orders' market.
    `WITH latest AS MATERIALIZED (
       SELECT e.id, e.account_id, e.client_order_id, e.symbol, e.side, e.quantity, e.price, e.filled_at
         FROM brokerdesk.executions e
        WHERE ${underlyingOf("e.symbol")} = $1
        ORDER BY e.filled_at DESC, e.id DESC
        LIMIT $3 * 4)
     SELECT e.id::text AS id, o.id::text AS order_id, e.account_id, d.account_number, e.symbol, e.side,
            e.quantity::text AS quantity, e.price::text AS price, e.filled_at
       FROM latest e
       JOIN brokerdesk.orders o ON o.account_id = e.account_id AND o.client_order_id = e.client_order_id
       LEFT JOIN brokerdesk.account_directory d ON d.account_id = e.account_id
      WHERE o.market = $2
      ORDER BY e.filled_at DESC, e.id DESC
      LIMIT $3`,
    [symbol, market, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    orderId: r.order_id,
    accountId: r.account_id,
    accountNumber: r.account_number,
    symbol: r.symbol,
    side: r.side,
    quantity: r.quantity,
    price: r.price,
    filledAt: new Date(r.filled_at).toISOString(),
  }));
}
