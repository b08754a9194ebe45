import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, OpContext, Sandbox } from "../context";
import { business } from "../errors";
import { cursorOf, page, pageSize } from "../paging";
import { route } from "../router";
import { parseDate, required } from "../validate";
import { price, qty } from "../money";
import { exerciseOption } from "./exercise-request";
import { cancelOrder, replaceOrders } from "./order-modify";
import { groupOrders, groupView, requireOrder, type OrderRow } from "./order-store";
import { orderAccount, placeOrders, previewOrder } from "./order-write";

/**
 * Order routes. Lists are of groups, newest first, keyed by the group's client_order_id
 * (legacy cursor `last_client_order_id`); executions are keyed by `execution_id` (cursor `last_execution_id`).
 */
async function listGroups(sb: Sandbox, ctx: OpContext, open: boolean) {
  const account = await orderAccount(sb.engine, required(ctx.query, "account_id"));
  const size = pageSize(ctx.query);
  const after = cursorOf(ctx, "last_client_order_id");
  let afterSeq: string | null = null;
  if (after) {
    const { rows } = await sb.engine.query<{ s: string }>(
      "SELECT min(seq)::text AS s FROM sandbox.orders WHERE account_id = $1 AND group_id = $2",
      [account.account_id, after],
    );
    if (!rows[0]?.s) throw business("ORDER_NOT_FOUND", `Unknown cursor order ${after}.`);
    afterSeq = rows[0].s;
  }
  const start = parseDate(ctx.query.start_date, "start_date");
  const end = parseDate(ctx.query.end_date, "end_date");
  // One row per group (its first order's seq), newest group first.
  const { rows } = await sb.engine.query<{ group_id: string }>(
    `SELECT group_id FROM sandbox.orders WHERE account_id = $1
       AND ($2::bigint IS NULL OR seq < $2) AND ($3::date IS NULL OR place_time >= $3::date) AND ($4::date IS NULL OR place_time < $4::date + 1)
       AND (NOT $5 OR status IN ('PENDING', 'SUBMITTED', 'PARTIAL_FILLED'))
     GROUP BY group_id ORDER BY min(seq) DESC LIMIT $6`,
    [account.account_id, afterSeq, start ?? null, end ?? null, open, size + 1],
  );
  const ids = rows.map((r) => r.group_id);
  const orders = await groupOrders(sb.engine, account.account_id, ids);
  const groups = groupView(orders);
  const ordered = ids.map((id) => groups.find((g) => g.client_order_id === id)!).filter(Boolean);
  return page(ctx, ordered, size, (g) => String(g.client_order_id));
}

export function orderRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  route(app, sb, "previewOrder", ({ body }) => previewOrder(sb, body, "broker"));
  route(app, sb, "placeOrder", ({ body }) => placeOrders(sb, body, "broker"));
  route(app, sb, "replaceOrder", ({ body }) => replaceOrders(sb, body));
  route(app, sb, "cancelOrder", ({ body }) => cancelOrder(sb, body));
  route(app, sb, "getOrder", async ({ query }) => {
    const account = await orderAccount(sb.engine, required(query, "account_id"));
    const o: OrderRow = await requireOrder(sb.engine, account.account_id, required(query, "client_order_id"));
    return groupView(await groupOrders(sb.engine, account.account_id, [o.group_id]))[0];
  });
  route(app, sb, "listOrderHistory", (ctx) => listGroups(sb, ctx, false));
  route(app, sb, "listOpenOrders", (ctx) => listGroups(sb, ctx, true));
  route(app, sb, "listOrderExecutions", async (ctx) => {
    const account = await orderAccount(sb.engine, required(ctx.query, "account_id"));
    const size = pageSize(ctx.query);
    const after = cursorOf(ctx, "last_execution_id");
    const start = parseDate(ctx.query.start_date, "start_date");
    const end = parseDate(ctx.query.end_date, "end_date");
    const { rows } = await sb.engine.query<Record<string, string> & { fees: unknown; filled_at: Date }>(
      `SELECT e.*, e.settle_date::text AS settle_date FROM sandbox.executions e WHERE account_id = $1
         AND ($2::text IS NULL OR seq < (SELECT seq FROM sandbox.executions WHERE execution_id = $2))
         AND ($3::text IS NULL OR client_order_id = $3) AND ($4::date IS NULL OR filled_at >= $4::date) AND ($5::date IS NULL OR filled_at < $5::date + 1)
       ORDER BY seq DESC LIMIT $6`,
      [account.account_id, after ?? null, ctx.query.client_order_id || null, start ?? null, end ?? null, size + 1],
    );
    const items = rows.map((e) => ({
      execution_id: e.execution_id,
      order_id: e.order_id,
      client_order_id: e.client_order_id,
      account_id: e.account_id,
      symbol: e.symbol,
      market: e.market,
      instrument_type: e.instrument_type,
      side: e.side,
      order_type: e.order_type,
      status: e.status,
      filled_quantity: qty(e.quantity),
      filled_price: price(e.price),
      filled_time: String(new Date(e.filled_at).getTime()),
      filled_time_at: new Date(e.filled_at).toISOString(),
      settle_date: e.settle_date,
      currency: e.currency,
      commission: { actual_commission: price(e.commission), receivable_commission: price(e.receivable_commission) },
      actual_commission: price(e.commission),
      receivable_commission: price(e.receivable_commission),
      fees: e.fees,
    }));
    return page(ctx, items, size, (e) => e.execution_id);
  });
  route(app, sb, "exerciseOption", ({ body }) => exerciseOption(sb, body));
}
