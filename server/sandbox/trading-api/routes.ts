import "server-only";
import type { Hono } from "hono";
import { TRADING_OPERATIONS, type TradingOperationName } from "@/server/wire/trading-operations";
import type { HonoEnv, OpContext, Sandbox } from "../context";
import { calendar } from "../calendar";
import { ApiError, illegal, unauthorized } from "../errors";
import { Decimal, price, qty } from "../money";
import { list } from "../paging";
import { handlerOf, parseBody, routeOperation, type OpHandler } from "../router";
import { issueCredential, listCredentials, revokeCredential } from "./credentials";
import { cancelOrder, replaceOrders } from "../trading/order-modify";
import { oneOf, parseDate, required } from "../validate";
import { placeOrders, previewOrder } from "../trading/order-write";

/**
 * The Trading API: the account holder's family. Its operations are the Broker API's operations on one virtual
 * account, so every handler below checks the account and then runs the very code the Broker API runs (same orders,
 * same matching, same trade events). Differences: the account is the credential's own (any other → 401), US stock
 * combos may use all six combo types, and executions carry the Trading API's extra fields.
 */

/** The error the upstream answers when an app key names an account it is not authorized for (facts §6.1). */
const notRelated = () => unauthorized("INVALID_TOKEN", '401 UNAUTHORIZED "app_id and account_id not related"');

/** The caller's virtual account, after checking that the request names it (by account id or account number). */
async function ownAccount(sb: Sandbox, ctx: OpContext) {
  const principal = ctx.c.get("principal");
  if (principal.kind !== "trading") throw notRelated();
  const named = ctx.c.req.method === "GET" ? ctx.query.account_id : ctx.body.account_id;
  if (typeof named !== "string" || named === "") throw illegal("account_id is required.");
  const { rows } = await sb.engine.query<{
    account_id: string;
    account_number: string;
    account_type: string;
    account_status: string;
    external_account_number: string;
  }>(
    `SELECT account_id, account_number, account_type, account_status, external_account_number FROM sandbox.virtual_accounts
      WHERE account_id = $1 AND (account_id = $2 OR account_number = $2)`,
    [principal.accountId, named],
  );
  if (!rows[0]) throw notRelated();
  return rows[0];
}

/** Only the caller's own account: the Broker API handler of the same operation, after the account check. */
const scoped =
  (sb: Sandbox, handler: () => OpHandler): OpHandler =>
  async (ctx) => {
    await ownAccount(sb, ctx);
    return handler()(ctx);
  };

/** Adds the Trading API's execution fields (Java SDK OrderExecution) to the Broker API's execution records. */
async function withOrderFields(sb: Sandbox, result: unknown): Promise<unknown> {
  const items = (Array.isArray(result) ? result : (result as { data: Record<string, unknown>[] }).data) as Record<string, unknown>[];
  if (!items.length) return result;
  const { rows } = await sb.engine.query<{
    order_id: string;
    quantity: string | null;
    limit_price: string | null;
    filled_quantity: string;
  }>(
    "SELECT order_id, quantity::text AS quantity, limit_price::text AS limit_price, filled_quantity::text AS filled_quantity FROM sandbox.orders WHERE order_id = ANY($1)",
    [[...new Set(items.map((e) => String(e.order_id)))]],
  );
  const byId = new Map(rows.map((r) => [r.order_id, r]));
  for (const e of items) {
    const o = byId.get(String(e.order_id));
    Object.assign(e, {
      execution_time: e.filled_time_at,
      execution_type: "FILL",
      ...(o
        ? {
            total_quantity: o.quantity == null ? undefined : qty(o.quantity),
            limit_price: o.limit_price == null ? undefined : price(o.limit_price),
            total_filled_qty: qty(o.filled_quantity),
            leaves_qty: o.quantity == null ? undefined : qty(Decimal.max(new Decimal(o.quantity).minus(o.filled_quantity), 0)),
          }
        : {}),
    });
  }
  return result;
}

/**
 * Earlier releases of the Python SDK (`/openapi/account/orders/*`) send a POST's account_id in the query and page open
 * orders by `last_order_id`: both are mapped onto the current shape (account_id in the body; the group's
 * last_client_order_id), so every handler sees one request shape.
 */
async function olderSdkRequest(sb: Sandbox, ctx: OpContext): Promise<OpContext> {
  let next = ctx;
  if (ctx.c.req.method === "POST" && ctx.body.account_id === undefined && ctx.query.account_id)
    next = { ...next, body: { ...ctx.body, account_id: ctx.query.account_id } };
  const principal = ctx.c.get("principal");
  if (ctx.query.last_order_id && !ctx.query.last_client_order_id && principal.kind === "trading") {
    const { rows } = await sb.engine.query<{ group_id: string }>(
      "SELECT group_id FROM sandbox.orders WHERE order_id = $1 AND account_id = $2",
      [ctx.query.last_order_id, principal.accountId],
    );
    if (rows[0]) next = { ...next, query: { ...next.query, last_client_order_id: rows[0].group_id } };
  }
  return next;
}

/** Batch place: each order is placed on its own (NORMAL equity orders only); one failing does not stop the rest. */
async function batchPlace(sb: Sandbox, body: Record<string, unknown>) {
  const list = body.batch_orders;
  if (!Array.isArray(list) || !list.length || list.length > 50) throw illegal("batch_orders must hold 1 to 50 orders.");
  const results: Record<string, unknown>[] = [];
  for (const [i, o] of (list as unknown[]).entries()) {
    const order = (typeof o === "object" && o !== null ? o : {}) as Record<string, unknown>;
    const clientOrderId = typeof order.client_order_id === "string" ? order.client_order_id : undefined;
    try {
      if ((order.combo_type ?? "NORMAL") !== "NORMAL" || (order.instrument_type ?? "EQUITY") !== "EQUITY") {
        throw illegal(`batch_orders[${i}]: batch place takes NORMAL equity orders only.`);
      }
      const ack = (await placeOrders(sb, { account_id: body.account_id, new_orders: [order] }, "trading")) as {
        client_order_id: string;
        order_id: string;
      };
      results.push({ client_order_id: ack.client_order_id, order_id: ack.order_id });
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 417) throw e;
      results.push({ client_order_id: clientOrderId, error_code: e.code, message: e.message });
    }
  }
  const failed = results.filter((r) => r.error_code).length;
  return { total: results.length, success: results.length - failed, failed, batch_orders: results };
}

export function tradingApiRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  const serve = (name: TradingOperationName, handler: OpHandler) =>
    routeOperation(app, sb, TRADING_OPERATIONS[name], async (ctx) => handler(await olderSdkRequest(sb, ctx)));
  const broker = (name: Parameters<typeof handlerOf>[1]) => () => handlerOf(app, name);

  // The accounts an app key may trade: exactly the one virtual account its credential was issued for.
  serve("listTradingAccounts", async (ctx) => {
    const principal = ctx.c.get("principal");
    if (principal.kind !== "trading") throw notRelated();
    const { rows } = await sb.engine.query<{
      account_id: string;
      account_number: string;
      account_type: string;
      external_account_number: string;
    }>("SELECT account_id, account_number, account_type, external_account_number FROM sandbox.virtual_accounts WHERE account_id = $1", [
      principal.accountId,
    ]);
    return list(
      ctx,
      rows.map((a) => ({
        account_id: a.account_id,
        account_number: a.account_number,
        account_type: a.account_type,
        account_class: "INDIVIDUAL",
        account_label: a.external_account_number,
        user_id: a.account_id,
      })),
    );
  });
  serve("getTradingBalance", scoped(sb, broker("getBalance")));
  serve("listTradingPositions", scoped(sb, broker("listPositions")));
  // Instrument data is not per account. The Python SDK's get_instrument sends page_size 1000 by default.
  serve("listTradingStockInstruments", (ctx) => broker("listStockInstruments")()({ ...ctx, maxPageSize: 1000 }));
  serve("listTradingOptionContracts", (ctx) => broker("listOptionContracts")()(ctx));

  serve("previewTradingOrder", async (ctx) => (await ownAccount(sb, ctx), previewOrder(sb, ctx.body, "trading")));
  serve("placeTradingOrder", async (ctx) => (await ownAccount(sb, ctx), placeOrders(sb, ctx.body, "trading")));
  serve("replaceTradingOrder", async (ctx) => (await ownAccount(sb, ctx), replaceOrders(sb, ctx.body, "trading")));
  serve("cancelTradingOrder", async (ctx) => (await ownAccount(sb, ctx), cancelOrder(sb, ctx.body)));
  serve("batchPlaceTradingOrders", async (ctx) => (await ownAccount(sb, ctx), batchPlace(sb, ctx.body)));
  serve("getTradingCalendar", async (ctx) => {
    const q = ctx.query;
    const market = oneOf(required(q, "market"), ["US", "HK", "CN"] as const, "market")!;
    const start = parseDate(required(q, "start"), "start")!;
    const end = parseDate(required(q, "end"), "end")!;
    if (start > end) throw illegal("start must not be after end.");
    if (Date.parse(end) - Date.parse(start) > 366 * 86_400_000) throw illegal("The range may span at most 366 days.");
    return calendar(market, start, end)
      .filter((d) => d.is_trading_day)
      .map((d) => ({ trade_day: d.date, trade_date_type: d.is_early_close ? "HALF_DAY" : "FULL_DAY" }));
  });
  serve("getTradingOrder", scoped(sb, broker("getOrder")));
  serve("listTradingOrderHistory", scoped(sb, broker("listOrderHistory")));
  serve("listTradingOpenOrders", scoped(sb, broker("listOpenOrders")));
  serve("listTradingOrderExecutions", async (ctx) => {
    await ownAccount(sb, ctx);
    // The Java SDK's cursor is last_execution_id, like the Broker API's; `last_id` is accepted as its alias.
    const query = ctx.query.last_id && !ctx.query.last_execution_id ? { ...ctx.query, last_execution_id: ctx.query.last_id } : ctx.query;
    return withOrderFields(sb, await handlerOf(app, "listOrderExecutions")({ ...ctx, query }));
  });
}

/**
 * Control API for Trading API credentials (the Broker API has no operation for it): issue for a virtual account
 * (the only answer that carries the secret), list without secrets (GET, or POST …/list), revoke (POST …/revoke or DELETE …/:app_key).
 */
export function tradingCredentialRoutes(app: Hono<HonoEnv>, sb: Sandbox) {
  app.post("/sandbox/trading-credentials", async (c) => c.json(await issueCredential(sb, parseBody(c.get("rawBody")).account_id)));
  app.get("/sandbox/trading-credentials", async (c) => c.json({ data: await listCredentials(sb, c.get("query").account_id || undefined) }));
  // The same list as a POST, for callers whose control channel only posts (the desk's Broker client).
  app.post("/sandbox/trading-credentials/list", async (c) => {
    const id = parseBody(c.get("rawBody")).account_id;
    return c.json({ data: await listCredentials(sb, typeof id === "string" && id ? id : undefined) });
  });
  app.post("/sandbox/trading-credentials/revoke", async (c) => c.json(await revokeCredential(sb, parseBody(c.get("rawBody")).app_key)));
  app.delete("/sandbox/trading-credentials/:app_key", async (c) => c.json(await revokeCredential(sb, c.req.param("app_key"))));
}
