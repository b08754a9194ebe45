import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClientId } from "@/lib/ids";
import { clientStockOrder } from "../helpers/orders";
import { createBrokerClient, type BrokerClient } from "@/server/broker/client";
import { createLogger } from "@/server/log";
import { collectAll } from "@/server/broker/pagination";
import { MemoryTokenStore } from "@/server/broker/token-store";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";

/**
 * Contract tests: the client against the real embedded sandbox, for every operation the sandbox serves, with both
 * signature algorithms and both path styles. Order operations run once the sandbox serves them (part 2).
 */
const APP_KEY = "contract-key";
const APP_SECRET = "contract-secret";
let sb: RunningSandbox;

beforeAll(async () => {
  sb = await startSandbox({ appKey: APP_KEY, appSecret: APP_SECRET, tokenRateLimit: 1000 });
}, 120_000);
afterAll(async () => sb?.close());

const silent = createLogger({ name: "broker", level: "silent" });
function client(algorithm: "HMAC-SHA1" | "HMAC-SHA256", pathStyle: "resource" | "legacy", over: { appSecret?: string } = {}): BrokerClient {
  const fast = { limit: 50, windowMs: 1_000 };
  return createBrokerClient(
    {
      kind: "sandbox",
      baseUrl: sb.url,
      appKey: APP_KEY,
      appSecret: over.appSecret ?? APP_SECRET,
      algorithm,
      pathStyle,
      timeoutMs: 10_000,
      maxRetries: 2,
      rateLimits: { "order-query": fast, assets: fast },
    },
    { tokenStore: new MemoryTokenStore(), logger: silent },
  );
}
const unique = () => String(Math.floor(Math.random() * 1e9)).padStart(9, "0");

describe.each([
  ["HMAC-SHA256", "resource"],
  ["HMAC-SHA256", "legacy"],
  ["HMAC-SHA1", "resource"],
  ["HMAC-SHA1", "legacy"],
] as const)("contract: %s, %s paths", (algorithm, pathStyle) => {
  let c: BrokerClient;
  let va: string; // a funded virtual account with positions
  let master: string;
  beforeAll(async () => {
    c = client(algorithm, pathStyle);
    const accounts = await collectAll((cursor) => c.listVirtualAccounts({ page_size: 50, cursor, account_status: ["ACTIVE"] }));
    expect(accounts.length).toBeGreaterThan(5);
    for (const a of accounts) {
      const positions = await c.listPositions({ account_id: a.account_id });
      if (positions.some((p) => p.instrument_type === "EQUITY" && Number(p.quantity) >= 2)) {
        va = a.account_id;
        master = a.belong_account_id!;
        break;
      }
    }
    expect(va).toBeDefined();
  }, 60_000);

  it("token: auto-created against the sandbox, checked and refreshed; sent as x-access-token", async () => {
    expect((await c.tokens.status()).state).toBe("NORMAL");
    expect((await c.tokens.check()).state).toBe("NORMAL");
    expect((await c.tokens.refresh()).state).toBe("NORMAL");
  });

  it("accounts: list pages, get, create (idempotent by client_request_id), update", async () => {
    const p1 = await c.listVirtualAccounts({ page_size: 3 });
    expect(p1.items).toHaveLength(3);
    const p2 = await c.listVirtualAccounts({ page_size: 3, cursor: p1.nextCursor });
    expect(p2.items.map((a) => a.account_id)).not.toContain(p1.items[0].account_id);
    const detail = await c.getVirtualAccount({ account_id: va });
    expect(detail).toMatchObject({ account_id: va, belong_account_id: master });
    const input = {
      client_request_id: newClientId("va"),
      belong_account_id: master,
      external_account_number: unique(),
      account_type: "CASH" as const,
      trading_permissions: ["US_STOCK_NORMAL" as const, "US_OPTION_NORMAL" as const],
      option_level: "LV1" as const,
      w8ben_info: {
        first_name: "Ada",
        last_name: "Lovelace",
        middle_name: "",
        home_address: { country: "GB", city: "London", street_address: "1 St" },
        mail_address: { country: "GB", city: "London", street_address: "1 St" },
      },
    };
    const created = await c.createVirtualAccount(input);
    expect(created.account_number).toBe(`VBD${input.external_account_number}`);
    expect((await c.createVirtualAccount(input)).account_id).toBe(created.account_id); // replay = same account
    const updated = await c.updateVirtualAccount({
      client_request_id: newClientId("vu"),
      account_id: created.account_id,
      option_level: "LV2",
    });
    expect(updated.account_id).toBe(created.account_id);
    expect((await c.getVirtualAccount({ account_id: created.account_id })).option_level).toBe("LV2");
  });

  it("instruments: stock list, stock locate, corporate action, option contracts (last_instrument_id pages)", async () => {
    const stocks = await c.listStockInstruments({ symbols: ["AAPL", "MSFT"], category: "US_STOCK" });
    expect(stocks.items.map((i) => i.symbol).sort()).toEqual(["AAPL", "MSFT"]);
    const all = await collectAll((cursor) => c.listStockInstruments({ page_size: 20, cursor }), { maxPages: 3 });
    expect(new Set(all.map((i) => i.instrument_id)).size).toBe(all.length);
    expect((await c.getStockLocate({ symbol: "AAPL" })).symbol).toBe("AAPL");
    const ca = await c.getCorporateAction({ event_id: "CA-AAPL-DIV-1" });
    expect(ca).toMatchObject({ event_id: "CA-AAPL-DIV-1", event_type: "DIVIDEND" });
    expect(ca.to[0].payouts[0].amount).toBe("0.25");
    const page1 = await c.listOptionContracts({ root_symbol: "AAPL", page_size: 4 });
    expect(page1.items).toHaveLength(4);
    const page2 = await c.listOptionContracts({ root_symbol: "AAPL", page_size: 4, cursor: page1.nextCursor });
    expect(page2.items[0].instrument_id > page1.items[3].instrument_id).toBe(true);
    expect(typeof page1.items[0].strike_price).toBe("string");
  });

  it("activities and assets", async () => {
    const acts = await c.listAccountActivities({ account_id: va, page_size: 5 });
    expect(acts.items.length).toBeGreaterThan(0);
    if (acts.nextCursor) {
      const next = await c.listAccountActivities({ account_id: va, page_size: 5, cursor: acts.nextCursor });
      expect(next.items.map((a) => a.id)).not.toContain(acts.items[0].id);
    }
    const b = await c.getBalance({ account_id: va });
    expect(b.account_currency_assets.length).toBeGreaterThan(0);
    expect(b.total_cash_balance).toMatch(/^-?\d+(\.\d+)?$/);
    const positions = await c.listPositions({ account_id: va });
    expect(positions.length).toBeGreaterThan(0);
  });

  it("funding: FX rate, FX request, instant exchange, instant funding (create + detail)", async () => {
    const rate = await c.getFxRate({ from_currency: "USD", to_currency: "HKD" });
    expect(rate.fx_rate).toMatch(/^\d+(\.\d+)?$/);
    const fx = await c.createFxRequest({
      account_id: master,
      client_request_id: newClientId("fx"),
      from_amount: "100.00",
      from_currency: "USD",
      to_currency: "HKD",
    });
    expect((await c.getFxRequest({ account_id: master, client_request_id: fx.client_request_id })).fx_id).toBe(fx.fx_id);
    const deposit = await c.createInstantFunding({
      account_id: va,
      client_request_id: newClientId("if"),
      type: "DEPOSIT",
      amount: "500.00",
      currency: "USD",
    });
    expect(deposit.status).toBe("COMPLETED");
    expect((await c.getInstantFunding({ account_id: va, client_request_id: deposit.client_request_id })).instant_funding_id).toBe(
      deposit.instant_funding_id,
    );
    const toAmount = (Number(rate.fx_rate) * 10).toFixed(2);
    const ix = await c.createInstantExchange({
      account_id: va,
      client_request_id: newClientId("ix"),
      from_amount: "10.00",
      to_amount: toAmount,
      from_currency: "USD",
      to_currency: "HKD",
    });
    expect((await c.getInstantExchange({ account_id: va, client_request_id: ix.client_request_id })).instant_exchange_id).toBe(
      ix.instant_exchange_id,
    );
  });

  it("journals: cash and position (create + detail)", async () => {
    const cash = await c.createCashJournal({
      from_account: master,
      to_account: va,
      client_request_id: newClientId("cj"),
      amount: "25.00",
      currency: "USD",
    });
    expect(cash.status).toBe("COMPLETED");
    expect((await c.getCashJournal({ account_id: master, client_request_id: cash.client_request_id })).journal_id).toBe(cash.journal_id);
    const held = (await c.listPositions({ account_id: va })).find((p) => p.instrument_type === "EQUITY" && Number(p.quantity) >= 2)!;
    const others = (await c.listVirtualAccounts({ page_size: 10, account_status: ["ACTIVE"] })).items.filter((a) => a.account_id !== va);
    const pj = await c.createPositionJournal({
      from_account: va,
      to_account: others[0].account_id,
      client_request_id: newClientId("pj"),
      instrument_type: "EQUITY",
      market: (held.market ?? "US") as "US",
      symbol: held.symbol,
      quantity: "1",
    });
    expect(pj.status).toBe("COMPLETED");
    expect((await c.getPositionJournal({ account_id: va, client_request_id: pj.client_request_id })).journal_id).toBe(pj.journal_id);
  });

  it("master data: trade calendar", async () => {
    const days = await c.listTradeCalendar({ market: "US", year: 2026 });
    expect(days.length).toBeGreaterThan(200);
    expect(days.some((d) => d.is_trading_day === true)).toBe(true);
  });

  it("errors: a 417 business rule and a bad signature become BrokerErrors with the request id", async () => {
    await expect(c.getVirtualAccount({ account_id: "NOPE" })).rejects.toMatchObject({
      status: 417,
      errorCode: "ACCOUNT_NOT_FOUND",
      requestId: expect.any(String),
      attempts: 1,
    });
    const bad = client(algorithm, pathStyle, { appSecret: "wrong-secret" });
    await expect(bad.getBalance({ account_id: va })).rejects.toMatchObject({ status: 401, errorCode: "UNAUTHORIZED", attempts: 1 });
  });

  it("orders: preview, place (replay-safe), detail, open, history, replace, cancel, executions; option exercise", async () => {
    const id = newClientId("ord");
    const leg = clientStockOrder({ client_order_id: id, quantity: "1", limit_price: "1.00" });
    const preview = await c.previewOrder({ account_id: va, new_orders: [leg] });
    expect(preview.estimated_cost).toBeDefined();
    const [ack] = await c.placeOrder({ account_id: va, new_orders: [leg] });
    expect(ack.client_order_id).toBe(id);
    const [again] = await c.placeOrder({ account_id: va, new_orders: [leg] });
    expect(again.order_id).toBe(ack.order_id); // a replay never makes a second order
    const group = await c.getOrder({ account_id: va, client_order_id: id });
    expect(group.orders[0].client_order_id).toBe(id);
    const open = await collectAll((cursor) => c.listOpenOrders({ account_id: va, cursor }));
    expect(open.map((g) => g.client_order_id)).toContain(id);
    await c.replaceOrder({
      account_id: va,
      modify_orders: [{ combo_type: "NORMAL", client_order_id: id, limit_price: "1.05", quantity: "1" }],
    });
    await c.cancelOrder({ account_id: va, client_order_id: id });
    const history = await collectAll((cursor) => c.listOrderHistory({ account_id: va, page_size: 20, cursor }), { maxPages: 5 });
    expect(history.map((g) => g.client_order_id)).toContain(id);
    await c.listOrderExecutions({ account_id: va });
  });

  it("option exercise (body fields chosen by us: account_id, client_request_id, symbol, quantity, exercise_type)", async () => {
    const accounts = (await c.listVirtualAccounts({ page_size: 50, account_status: ["ACTIVE"] })).items;
    let holder: { account: string; symbol: string } | undefined;
    for (const a of accounts) {
      const opt = (await c.listPositions({ account_id: a.account_id })).find((p) => p.instrument_type === "OPTION");
      if (opt) {
        holder = { account: a.account_id, symbol: opt.symbol };
        break;
      }
    }
    expect(holder).toBeDefined();
    const input = { account_id: holder!.account, client_request_id: newClientId("ex"), symbol: holder!.symbol, quantity: "1" };
    const res = await c.exerciseOption(input);
    expect(res.client_request_id).toBe(input.client_request_id);
  });
});
