import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines, startFixture, type Fixture } from "./fixture";
import { items, TradingSdkClient, type Style } from "./trading-api-client";
import { ACCOUNTS, clock, rid, setPrice, US_CORE } from "./trading-helpers";
import { usStockOrder } from "../helpers/orders";

/**
 * Trading API contract: an account holder's app, built from the official SDKs' request classes (trading-api-client.ts),
 * drives every Trading API operation on both path styles, with credentials issued for one virtual account.
 */
const acct = ACCOUNTS.margin;
const other = ACCOUNTS.cash;

const stock = (o: Record<string, unknown> = {}) => usStockOrder({ client_order_id: rid("ta"), quantity: "2", ...o });

describe.each(engines)("Trading API contract ($name)", (te) => {
  let f: Fixture;
  let creds: { app_key: string; app_secret: string; account_id: string };
  const client = (style: Style, algorithm: "HMAC-SHA1" | "HMAC-SHA256" = "HMAC-SHA256") =>
    new TradingSdkClient(f.sb.url, creds.app_key, creds.app_secret, style, algorithm);
  let legacy: TradingSdkClient;
  let resource: TradingSdkClient;

  const events = async (clientOrderId: string) =>
    (
      await f.sb.engine.query<{ payload: Record<string, unknown> }>(
        "SELECT payload FROM sandbox.events WHERE event_type = 'TRADE' AND payload->>'client_order_id' = $1 ORDER BY id",
        [clientOrderId],
      )
    ).rows.map((r) => r.payload);

  beforeAll(async () => {
    f = await startFixture(te);
    await clock(f.api, US_CORE);
    const r = await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: acct } });
    expect(r.status).toBe(200);
    creds = r.body;
    legacy = client("legacy");
    resource = client("resource");
    await legacy.login();
    resource.token = legacy.token;
  }, 60_000);
  afterAll(async () => f?.close());

  it("issues credentials for one virtual account; the secret is answered once and never listed", async () => {
    expect(creds).toMatchObject({
      app_key: expect.stringMatching(/^ta-/),
      app_secret: expect.any(String),
      account_id: acct,
      status: "ACTIVE",
    });
    const listed = await f.api.call("GET", "/sandbox/trading-credentials", { query: { account_id: acct } });
    expect(listed.body.data).toEqual([expect.objectContaining({ app_key: creds.app_key, status: "ACTIVE" })]);
    expect(JSON.stringify(listed.body)).not.toContain(creds.app_secret);
  });

  it.each(["legacy", "resource"] as const)("account list, balance and positions (%s paths)", async (style) => {
    const c = style === "legacy" ? legacy : resource;
    const accounts = await c.get_account_list();
    expect(accounts.status).toBe(200);
    expect(Array.isArray(accounts.body)).toBe(style === "legacy");
    expect(items(accounts)).toEqual([
      expect.objectContaining({
        account_id: acct,
        account_number: expect.any(String),
        account_type: "MARGIN",
        account_class: expect.any(String),
      }),
    ]);
    const balance = await c.get_account_balance(acct);
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({
      account_id: acct,
      total_asset: expect.any(String),
      account_currency_assets: expect.arrayContaining([expect.objectContaining({ currency: "USD", buying_power: expect.any(String) })]),
    });
    // The account number names the same account.
    expect((await c.get_account_balance(items(accounts)[0].account_number)).status).toBe(200);
    const positions = await c.get_account_position(acct);
    expect(positions.status).toBe(200);
    expect(Array.isArray(positions.body)).toBe(style === "legacy");
  });

  it.each(["legacy", "resource"] as const)("stock instruments filtered by sub_category, option contracts (%s paths)", async (style) => {
    const c = style === "legacy" ? legacy : resource;
    // The SDK's default page_size (1000) is accepted.
    expect((await c.get_stock_instruments({})).status).toBe(200);
    const etfs = await c.get_stock_instruments({ category: "US_STOCK", sub_category: "ETF", page_size: 50 });
    expect(etfs.status).toBe(200);
    expect(items(etfs).length).toBeGreaterThan(0);
    expect(items(etfs).every((i) => i.sub_category === "ETF" && i.category === "US_STOCK")).toBe(true);
    const one = await c.get_stock_instruments({ symbols: "AAPL,SPY", category: "US_STOCK" });
    expect(
      items(one)
        .map((i) => i.symbol)
        .sort(),
    ).toEqual(["AAPL", "SPY"]);
    expect(items(one).find((i) => i.symbol === "AAPL")).toMatchObject({ sub_category: "COMMON_STOCK", instrument_id: expect.any(String) });
    const contracts = await c.get_option_contracts({ category: "US_OPTION", root_symbol: "AAPL", page_size: 5 });
    expect(contracts.status).toBe(200);
    expect(contracts.body.length).toBeGreaterThan(0);
    expect(contracts.body[0]).toMatchObject({ root_symbol: "AAPL", category: "US_OPTION", option_type: expect.stringMatching(/CALL|PUT/) });
  });

  it.each(["legacy", "resource"] as const)(
    "preview, place, detail, open, replace, cancel, history (%s paths), with the trade events",
    async (style) => {
      const c = style === "legacy" ? legacy : resource;
      await setPrice(f.api, "AAPL", "200.00");
      const o = stock({ limit_price: "150.00" });
      const preview = await c.preview_order(acct, [o]);
      expect(preview.status).toBe(200);
      expect(preview.body).toMatchObject({ estimated_cost: expect.any(String), estimated_transaction_fee: expect.any(String) });

      const placed = await c.place_order(acct, [o]);
      expect(placed.status).toBe(200);
      expect(placed.body).toMatchObject({ client_order_id: o.client_order_id, order_id: expect.any(String) });
      const detail = await c.get_order_detail(acct, o.client_order_id);
      expect(detail.body).toMatchObject({
        client_order_id: o.client_order_id,
        combo_type: "NORMAL",
        orders: [expect.objectContaining({ status: "SUBMITTED", limit_price: "150.00" })],
      });
      expect(items(await c.get_order_open(acct, { page_size: 50 })).map((g) => g.client_order_id)).toContain(o.client_order_id);

      const replaced = await c.replace_order(acct, [
        { client_order_id: o.client_order_id, combo_type: "NORMAL", limit_price: "151.00", quantity: "3" },
      ]);
      expect(replaced.status).toBe(200);
      expect((await c.get_order_detail(acct, o.client_order_id)).body.orders[0]).toMatchObject({
        limit_price: "151.00",
        total_quantity: "3",
      });
      const cancelled = await c.cancel_order(acct, o.client_order_id);
      expect(cancelled.body).toMatchObject({ client_order_id: o.client_order_id });
      expect((await c.get_order_detail(acct, o.client_order_id)).body.orders[0].status).toBe("CANCELLED");
      expect(items(await c.get_order_open(acct, { page_size: 50 })).map((g) => g.client_order_id)).not.toContain(o.client_order_id);
      const history = await c.get_order_history(acct, { page_size: 50, start_date: US_CORE.slice(0, 10), end_date: US_CORE.slice(0, 10) });
      expect(items(history).map((g) => g.client_order_id)).toContain(o.client_order_id);

      const scenes = await events(o.client_order_id);
      expect(scenes.find((e) => e.scene_type === "MODIFY_SUCCESS")).toMatchObject({
        order_status: "SUBMITTED",
        account_id: acct,
        actual_commission: expect.any(String),
        receivable_commission: expect.any(String),
        fees: expect.any(Array),
      });
      expect(scenes.find((e) => e.scene_type === "CANCEL_SUCCESS")).toMatchObject({
        order_status: "CANCELLED",
        actual_commission: expect.any(String),
        fees: expect.any(Array),
      });
    },
  );

  it("a filled order: FILLED / FINAL_FILLED events, executions by client order id and by date range, in the Broker API's list too", async () => {
    await setPrice(f.api, "KO", "60.00");
    const o = stock({ symbol: "KO", limit_price: "61.00", quantity: "4" });
    expect((await legacy.place_order(acct, [o])).status).toBe(200);
    const final = (await events(o.client_order_id)).find((e) => e.scene_type === "FINAL_FILLED");
    expect(final).toMatchObject({
      order_status: "FILLED",
      filled_qty: "4",
      actual_commission: expect.any(String),
      receivable_commission: expect.any(String),
      fees: expect.any(Array),
    });

    for (const c of [legacy, resource]) {
      const byOrder = items(await c.get_order_executions(acct, { client_order_id: o.client_order_id }));
      expect(byOrder).toHaveLength(1);
      expect(byOrder[0]).toMatchObject({
        execution_id: expect.any(String),
        client_order_id: o.client_order_id,
        symbol: "KO",
        side: "BUY",
        filled_quantity: "4",
        filled_price: expect.any(String),
        execution_time: expect.any(String),
        total_quantity: "4",
        limit_price: "61.00",
        leaves_qty: "0",
        total_filled_qty: "4",
      });
      const byDates = items(
        await c.get_order_executions(acct, { start_date: US_CORE.slice(0, 10), end_date: US_CORE.slice(0, 10), page_size: 100 }),
      );
      expect(byDates.map((e) => e.client_order_id)).toContain(o.client_order_id);
      expect(items(await c.get_order_executions(acct, { start_date: "2020-01-01", end_date: "2020-01-02" }))).toEqual([]);
    }
    // The same order, seen by the broker through the Broker API's order list of that virtual account.
    const broker = await f.api.op("listOrderHistory", "resource", { query: { account_id: acct, page_size: 50 } });
    expect(broker.body.data.map((g: { client_order_id: string }) => g.client_order_id)).toContain(o.client_order_id);
    const position = await legacy.get_account_position(acct);
    expect(position.body.find((p: { symbol: string }) => p.symbol === "KO")).toBeTruthy();
  });

  it("US stock combos: all six types through the Trading API; OTO and OTOCO stay refused by the Broker API", async () => {
    await setPrice(f.api, "MSFT", "400.00");
    const buy = (o: Record<string, unknown>) => stock({ symbol: "MSFT", limit_price: "350.00", quantity: "1", ...o });
    const sell = (o: Record<string, unknown>) => stock({ symbol: "MSFT", side: "SELL", quantity: "1", time_in_force: "GTC", ...o });
    const combos: Record<string, Record<string, unknown>[]> = {
      MASTER: [
        buy({ combo_type: "MASTER" }),
        sell({ combo_type: "STOP_PROFIT", limit_price: "450.00" }),
        sell({ combo_type: "STOP_LOSS", order_type: "STOP_LOSS", limit_price: undefined, stop_price: "300.00" }),
      ],
      OCO: [buy({ combo_type: "OCO" }), buy({ combo_type: "OCO", limit_price: "340.00" })],
      OTO: [buy({ combo_type: "OTO" }), sell({ combo_type: "OTO", limit_price: "450.00" })],
      OTOCO: [
        buy({ combo_type: "OTOCO" }),
        sell({ combo_type: "OTOCO", limit_price: "450.00" }),
        sell({ combo_type: "OTOCO", order_type: "STOP_LOSS", limit_price: undefined, stop_price: "300.00" }),
      ],
    };
    for (const [type, orders] of Object.entries(combos)) {
      const r = await resource.place_order(acct, orders, `c${type}${Date.now()}`);
      expect(r.status, `${type}: ${JSON.stringify(r.body)}`).toBe(200);
      const group = await resource.get_order_detail(acct, orders[0].client_order_id as string);
      expect(group.body.orders).toHaveLength(orders.length);
    }
    const oto = [buy({ combo_type: "OTO" }), sell({ combo_type: "OTO", limit_price: "450.00" })];
    const viaBroker = await f.api.op("placeOrder", "resource", { body: { account_id: acct, new_orders: oto } });
    expect(viaBroker.status).toBe(417);
    expect(viaBroker.body.error_code).toBe("UNSUPPORTED_COMBO_TYPE");
  });

  it.each(["legacy", "resource"] as const)("batch place: each order on its own, failures reported per order (%s paths)", async (style) => {
    const c = style === "legacy" ? legacy : resource;
    await setPrice(f.api, "AAPL", "200.00");
    const good = [stock({ limit_price: "101.00" }), stock({ limit_price: "102.00" })];
    const bad = stock({ symbol: "NOSUCH" });
    const r = await c.batch_place_order(acct, [...good, bad]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 3, success: 2, failed: 1 });
    expect(r.body.batch_orders[0]).toMatchObject({ client_order_id: good[0].client_order_id, order_id: expect.any(String) });
    expect(r.body.batch_orders[2]).toMatchObject({ client_order_id: bad.client_order_id, error_code: "INSTRUMENT_NOT_FOUND" });
    expect((await c.get_order_detail(acct, good[1].client_order_id)).body.orders[0].status).toBe("SUBMITTED");
    expect((await c.batch_place_order(other, good)).status).toBe(401);
  });

  it.each(["legacy", "resource"] as const)("trade calendar: trading days with FULL_DAY / HALF_DAY (%s paths)", async (style) => {
    const c = style === "legacy" ? legacy : resource;
    const r = await c.get_trade_calendar("US", "2026-11-23", "2026-11-29");
    expect(r.status).toBe(200);
    // Thanksgiving week: Thursday closed, Friday an early close, the weekend absent.
    expect(r.body).toEqual([
      { trade_day: "2026-11-23", trade_date_type: "FULL_DAY" },
      { trade_day: "2026-11-24", trade_date_type: "FULL_DAY" },
      { trade_day: "2026-11-25", trade_date_type: "FULL_DAY" },
      { trade_day: "2026-11-27", trade_date_type: "HALF_DAY" },
    ]);
  });

  it("an option order through the SDK's option path: contract lookup, place, fill, position (an options account's own key)", async () => {
    const optionsAcct = ACCOUNTS.optionsLv2;
    const issued = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: optionsAcct } })).body;
    const c = new TradingSdkClient(f.sb.url, issued.app_key, issued.app_secret, "resource");
    await c.login();
    const contracts = await c.get_option_contracts({ category: "US_OPTION", root_symbol: "AAPL", option_type: "CALL", page_size: 3 });
    const contract = contracts.body[0];
    await setPrice(f.api, contract.symbol, "5.00", { category: "US_OPTION" });
    const o = stock({ instrument_type: "OPTION", symbol: contract.symbol, limit_price: "5.10", quantity: "1", time_in_force: "GTC" });
    const r = await c.request(
      "POST",
      "/openapi/trade/option/order/place",
      {},
      { account_id: optionsAcct, new_orders: [o] },
      { category: "US_OPTION" },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await c.get_order_detail(optionsAcct, o.client_order_id)).body.orders[0]).toMatchObject({
      status: "FILLED",
      category: "US_OPTION",
    });
    expect((await c.get_account_position(optionsAcct)).body.data.map((p: { symbol: string }) => p.symbol)).toContain(contract.symbol);
    // The key of one account does not reach another, whichever account it was issued for.
    expect((await c.get_account_balance(acct)).status).toBe(401);
  });

  it("the SDKs' per-category path variants and HMAC-SHA1 signing", async () => {
    const sha1 = client("legacy", "HMAC-SHA1");
    sha1.token = legacy.token;
    expect((await sha1.get_account_list()).status).toBe(200);
    const o = stock({ limit_price: "120.00" });
    const r = await sha1.request(
      "POST",
      "/openapi/trade/stock/order/place",
      {},
      { account_id: acct, new_orders: [o] },
      { category: "US_EQUITY" },
    );
    expect(r.status).toBe(200);
    expect(
      (await sha1.request("POST", "/openapi/trade/stock/order/cancel", {}, { account_id: acct, client_order_id: o.client_order_id }))
        .status,
    ).toBe(200);
  });

  it("earlier Python SDK releases: /openapi/account/... paths, account_id in the query of POSTs, open orders paged by last_order_id", async () => {
    expect((await legacy.request("GET", "/openapi/account/balance", { account_id: acct })).body).toMatchObject({ account_id: acct });
    expect((await legacy.request("GET", "/openapi/account/positions", { account_id: acct })).status).toBe(200);
    const a = stock({ limit_price: "90.00" });
    const b = stock({ limit_price: "91.00" });
    const preview = await legacy.request("POST", "/openapi/account/orders/preview", { account_id: acct }, { new_orders: [a] });
    expect(preview.body).toMatchObject({ estimated_cost: expect.any(String) });
    const placedA = await legacy.request(
      "POST",
      "/openapi/account/orders/place",
      { account_id: acct },
      { new_orders: [a] },
      { category: "US_STOCK" },
    );
    expect(placedA.status).toBe(200);
    expect((await legacy.request("POST", "/openapi/account/orders/place", { account_id: acct }, { new_orders: [b] })).status).toBe(200);
    expect((await legacy.request("POST", "/openapi/account/orders/place", { account_id: other }, { new_orders: [stock()] })).status).toBe(
      401,
    );
    const replaced = await legacy.request(
      "POST",
      "/openapi/account/orders/replace",
      { account_id: acct },
      { modify_orders: [{ client_order_id: a.client_order_id, combo_type: "NORMAL", limit_price: "89.00" }] },
    );
    expect(replaced.status).toBe(200);
    expect(
      (await legacy.request("GET", "/openapi/account/orders/detail", { account_id: acct, client_order_id: a.client_order_id })).body
        .orders[0].limit_price,
    ).toBe("89.00");
    // Newest first: b, then a; the page after b (by its order id) starts with a.
    const first = (await legacy.request("GET", "/openapi/account/orders/open", { account_id: acct, page_size: 1 })).body;
    expect(first[0].client_order_id).toBe(b.client_order_id);
    const next = (
      await legacy.request("GET", "/openapi/account/orders/open", {
        account_id: acct,
        page_size: 1,
        last_order_id: first[0].orders[0].order_id,
      })
    ).body;
    expect(next[0].client_order_id).toBe(a.client_order_id);
    for (const o of [a, b])
      expect(
        (await legacy.request("POST", "/openapi/account/orders/cancel", { account_id: acct }, { client_order_id: o.client_order_id }))
          .status,
      ).toBe(200);
  });

  it("another account's id is refused with the upstream's 'not related' error, on every account-scoped operation", async () => {
    const notRelated = { error_code: "INVALID_TOKEN", message: expect.stringContaining("app_id and account_id not related") };
    for (const r of [
      await legacy.get_account_balance(other),
      await legacy.get_account_position(other),
      await legacy.place_order(other, [stock()]),
      await legacy.preview_order(other, [stock()]),
      await legacy.cancel_order(other, "whatever"),
      await legacy.get_order_history(other),
      await resource.get_order_open(other),
      await resource.get_order_detail(other, "whatever"),
      await resource.get_order_executions(other),
      await resource.get_account_balance("no-such-account"),
    ]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual(notRelated);
    }
  });

  it("each family keeps to its own routes: a Trading API key cannot call the Broker API or the control API, nor the broker's key the Trading API", async () => {
    const broker = await legacy.request("GET", "/openapi/broker/assets/balance", { account_id: acct });
    expect(broker.status).toBe(401);
    expect(broker.body.error_code).toBe("ROUTE_NOT_PERMITTED");
    expect((await legacy.request("POST", "/sandbox/reset", {}, {})).body.error_code).toBe("ROUTE_NOT_PERMITTED");
    const byBroker = await f.api.call("GET", "/openapi/account/list");
    expect(byBroker.status).toBe(401);
    expect(byBroker.body.error_code).toBe("ROUTE_NOT_PERMITTED");
  });

  it("a wrong secret and a revoked key are refused", async () => {
    const wrong = new TradingSdkClient(f.sb.url, creds.app_key, "not-the-secret", "legacy");
    wrong.token = legacy.token;
    expect((await wrong.get_account_list()).body.error_code).toBe("UNAUTHORIZED");

    const issued = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: acct } })).body;
    const c = new TradingSdkClient(f.sb.url, issued.app_key, issued.app_secret, "resource");
    await c.login();
    expect((await c.get_account_list()).status).toBe(200);
    const revoked = await f.api.call("POST", "/sandbox/trading-credentials/revoke", { body: { app_key: issued.app_key } });
    expect(revoked.body).toMatchObject({ app_key: issued.app_key, status: "REVOKED" });
    const refused = await c.get_account_list();
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error_code: "UNAUTHORIZED", message: expect.stringContaining("revoked") });
    // The other key of the same account still works; DELETE revokes too.
    expect((await legacy.get_account_list()).status).toBe(200);
    const third = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: acct } })).body;
    expect((await f.api.call("DELETE" as "POST", `/sandbox/trading-credentials/${third.app_key}`)).body.status).toBe("REVOKED");
  });
});
