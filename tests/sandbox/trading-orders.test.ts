import { describe, expect, it } from "vitest";
import { errorOf } from "../helpers/signed-fetch";
import { ACCOUNTS, clock, order, place, position, setPrice, stock, US_CORE, withTrading } from "./trading-helpers";

/** Order types against the simulated market: each fills (or triggers) exactly when the pinned price crosses it. */
const f = withTrading();

const acct = ACCOUNTS.margin;
const status = async (id: unknown) => (await order(f.api, acct, id as string)).status;

describe("order types (US stock)", () => {
  it("LIMIT: waits while the ask is above the limit, fills at the ask when it crosses", async () => {
    await setPrice(f.api, "AAPL", "200.00");
    const o = stock({ limit_price: "190.00", quantity: "5" });
    const r = await place(f.api, acct, [o]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ client_order_id: o.client_order_id, order_id: expect.any(String) });
    expect(await status(o.client_order_id)).toBe("SUBMITTED");
    const before = Number(await position(f.api, acct, "AAPL"));
    await setPrice(f.api, "AAPL", "189.00");
    const done = await order(f.api, acct, o.client_order_id as string);
    expect(done).toMatchObject({
      status: "FILLED",
      filled_quantity: "5",
      place_time: expect.stringMatching(/^\d{13}$/),
      place_time_at: expect.any(String),
      filled_time: expect.stringMatching(/^\d{13}$/),
      fill_time: expect.stringMatching(/^\d{13}$/),
      filled_time_at: expect.any(String),
    });
    expect(Number(done.filled_price)).toBeLessThanOrEqual(190);
    expect(Number(done.commission.actual_commission)).toBeGreaterThan(0);
    expect(Number(await position(f.api, acct, "AAPL"))).toBe(before + 5);
  });

  it("MARKET: fills at once at the ask; a SELL's proceeds stay unsettled until the settlement date", async () => {
    await setPrice(f.api, "AAPL", "150.00");
    const buy = stock({ order_type: "MARKET", limit_price: undefined, quantity: "4" });
    expect((await place(f.api, acct, [buy])).status).toBe(200);
    expect(await status(buy.client_order_id)).toBe("FILLED");
    const sell = stock({ order_type: "MARKET", limit_price: undefined, quantity: "4", side: "SELL" });
    expect((await place(f.api, acct, [sell])).status).toBe(200);
    const s = await order(f.api, acct, sell.client_order_id as string);
    expect(s.status).toBe("FILLED");
    expect(s.fees.map((x: { type: string }) => x.type)).toEqual(expect.arrayContaining(["SEC_FEE", "FINRA_TAF"]));
    const bal = await f.api.op("getBalance", "resource", { query: { account_id: acct } });
    const usd = bal.body.account_currency_assets.find((c: { currency: string }) => c.currency === "USD");
    expect(Number(usd.unsettled_cash)).toBeGreaterThan(590);
    const ex = await f.api.op("listOrderExecutions", "resource", {
      query: { account_id: acct, client_order_id: sell.client_order_id as string },
    });
    expect(ex.body.data[0]).toMatchObject({ status: "FILLED", settle_date: "2026-11-18", filled_quantity: "4" });
    await clock(f.api, "2026-11-18T15:00:00Z");
    const later = await f.api.op("getBalance", "resource", { query: { account_id: acct } });
    expect(Number(later.body.account_currency_assets.find((c: { currency: string }) => c.currency === "USD").unsettled_cash)).toBe(0);
    await clock(f.api, US_CORE);
  });

  it("STOP_LOSS and STOP_LOSS_LIMIT: a SELL stop triggers when the price falls to the stop", async () => {
    await setPrice(f.api, "AAPL", "100.00");
    await place(f.api, acct, [stock({ order_type: "MARKET", limit_price: undefined, quantity: "6" })]);
    const stop = stock({
      side: "SELL",
      order_type: "STOP_LOSS",
      limit_price: undefined,
      stop_price: "95.00",
      quantity: "3",
      time_in_force: "GTC",
    });
    const stopLimit = stock({
      side: "SELL",
      order_type: "STOP_LOSS_LIMIT",
      stop_price: "95.00",
      limit_price: "94.00",
      quantity: "3",
      time_in_force: "GTC",
    });
    expect((await place(f.api, acct, [stop])).status).toBe(200);
    expect((await place(f.api, acct, [stopLimit])).status).toBe(200);
    await setPrice(f.api, "AAPL", "96.00");
    expect(await status(stop.client_order_id)).toBe("SUBMITTED");
    await setPrice(f.api, "AAPL", "93.00"); // triggers both; the limit at 94 is not marketable at a bid below 93
    expect(await status(stop.client_order_id)).toBe("FILLED");
    expect(await status(stopLimit.client_order_id)).toBe("SUBMITTED");
    await setPrice(f.api, "AAPL", "94.50");
    expect(await status(stopLimit.client_order_id)).toBe("FILLED");
  });

  it("TRAILING_STOP_LOSS (AMOUNT) follows the high and sells 2.00 below it; TRAILING_STOP_LOSS_LIMIT (PERCENTAGE) with an offset", async () => {
    await setPrice(f.api, "AAPL", "100.00");
    await place(f.api, acct, [stock({ order_type: "MARKET", limit_price: undefined, quantity: "4" })]);
    const trail = stock({
      side: "SELL",
      order_type: "TRAILING_STOP_LOSS",
      limit_price: undefined,
      trailing_type: "AMOUNT",
      trailing_stop_step: "2.00",
      quantity: "2",
      time_in_force: "GTC",
    });
    const trailLimit = stock({
      side: "SELL",
      order_type: "TRAILING_STOP_LOSS_LIMIT",
      limit_price: undefined,
      trailing_type: "PERCENTAGE",
      trailing_stop_step: "5",
      trailing_limit_price_offset: "0.50",
      quantity: "2",
      time_in_force: "GTC",
    });
    await place(f.api, acct, [trail]);
    await place(f.api, acct, [trailLimit]);
    await setPrice(f.api, "AAPL", "110.00"); // new high: stop 108.00 (amount), 104.50 (5 %)
    await setPrice(f.api, "AAPL", "108.50");
    expect(await status(trail.client_order_id)).toBe("SUBMITTED");
    await setPrice(f.api, "AAPL", "107.90");
    expect(await status(trail.client_order_id)).toBe("FILLED");
    expect(await status(trailLimit.client_order_id)).toBe("SUBMITTED");
    await setPrice(f.api, "AAPL", "104.40"); // triggers at 104.50 → limit 104.00, marketable at a bid ≈ 104.37
    const tl = await order(f.api, acct, trailLimit.client_order_id as string);
    expect(tl).toMatchObject({ status: "FILLED", limit_price: "104.00" });
  });

  it("TOUCH_MKT and TOUCH_LMT: a BUY if-touched order fires when the price drops to the trigger", async () => {
    await setPrice(f.api, "MSFT", "400.00");
    const mit = stock({ symbol: "MSFT", order_type: "TOUCH_MKT", limit_price: undefined, stop_price: "390.00", quantity: "1" });
    const lit = stock({ symbol: "MSFT", order_type: "TOUCH_LMT", stop_price: "390.00", limit_price: "385.00", quantity: "1" });
    await place(f.api, acct, [mit]);
    await place(f.api, acct, [lit]);
    await setPrice(f.api, "MSFT", "389.00");
    expect(await status(mit.client_order_id)).toBe("FILLED");
    expect(await status(lit.client_order_id)).toBe("SUBMITTED");
    await setPrice(f.api, "MSFT", "384.00");
    expect(await status(lit.client_order_id)).toBe("FILLED");
  });

  it("entrust_type AMOUNT buys for a cash amount (fractional shares need US_STOCK_FRACTIONAL, so whole-share accounts get 4 decimals only when allowed)", async () => {
    await setPrice(f.api, "KO", "50.00");
    const o = stock({
      symbol: "KO",
      order_type: "MARKET",
      limit_price: undefined,
      quantity: undefined,
      entrust_type: "AMOUNT",
      total_cash_amount: "1000.00",
    });
    expect((await place(f.api, acct, [o])).status).toBe(200);
    const done = await order(f.api, acct, o.client_order_id as string);
    expect(done.status).toBe("FILLED");
    expect(Number(done.filled_quantity) * Number(done.filled_price)).toBeLessThanOrEqual(1000);
  });

  it("a partial fill (liquidity 30 per pass), then cancel keeps what was filled", async () => {
    await setPrice(f.api, "PEP", "170.00", { liquidity: "30" });
    const o = stock({ symbol: "PEP", limit_price: "171.00", quantity: "100" });
    await place(f.api, acct, [o]);
    let rec = await order(f.api, acct, o.client_order_id as string);
    expect(rec).toMatchObject({ status: "PARTIAL_FILLED", filled_quantity: "30" });
    await setPrice(f.api, "PEP", "170.00", { liquidity: "30" });
    rec = await order(f.api, acct, o.client_order_id as string);
    expect(rec).toMatchObject({ status: "PARTIAL_FILLED", filled_quantity: "60" });
    const ex = await f.api.op("listOrderExecutions", "legacy", {
      query: { account_id: acct, client_order_id: o.client_order_id as string },
    });
    expect(ex.body.map((e: { status: string }) => e.status)).toEqual(["PARTIAL_FILLED", "PARTIAL_FILLED"]);
    const c = await f.api.op("cancelOrder", "resource", { body: { account_id: acct, client_order_id: o.client_order_id } });
    expect(c.status).toBe(200);
    expect(await order(f.api, acct, o.client_order_id as string)).toMatchObject({ status: "CANCELLED", filled_quantity: "60" });
    const again = await f.api.op("cancelOrder", "resource", { body: { account_id: acct, client_order_id: o.client_order_id } });
    expect(errorOf(again)).toEqual({ status: 417, code: "ORDER_NOT_CANCELLABLE" });
    await setPrice(f.api, "PEP", "170.00", { liquidity: "100000" });
  });

  it("replace: changes an open order; a FILLED order cannot be replaced; combo_type is required", async () => {
    await setPrice(f.api, "V", "280.00");
    const o = stock({ symbol: "V", limit_price: "270.00", quantity: "2" });
    await place(f.api, acct, [o]);
    const noCombo = await f.api.op("replaceOrder", "resource", {
      body: { account_id: acct, modify_orders: [{ client_order_id: o.client_order_id, limit_price: "271.00" }] },
    });
    expect(errorOf(noCombo)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    const r = await f.api.op("replaceOrder", "legacy", {
      body: {
        account_id: acct,
        modify_orders: [{ combo_type: "NORMAL", client_order_id: o.client_order_id, limit_price: "285.00", quantity: "3" }],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ client_order_id: o.client_order_id });
    expect(await order(f.api, acct, o.client_order_id as string)).toMatchObject({
      status: "FILLED",
      filled_quantity: "3",
      limit_price: "285.00",
    });
    const late = await f.api.op("replaceOrder", "resource", {
      body: { account_id: acct, modify_orders: [{ combo_type: "NORMAL", client_order_id: o.client_order_id, limit_price: "286.00" }] },
    });
    expect(errorOf(late)).toEqual({ status: 417, code: "ORDER_NOT_MODIFIABLE" });
  });

  it("GTD expires after its expire_date, DAY after its trading day, GTC stays", async () => {
    await setPrice(f.api, "JPM", "210.00");
    const gtd = stock({ symbol: "JPM", limit_price: "150.00", quantity: "1", time_in_force: "GTD", expire_date: "2026-11-18" });
    const day = stock({ symbol: "JPM", limit_price: "150.00", quantity: "1" });
    const gtc = stock({ symbol: "JPM", limit_price: "150.00", quantity: "1", time_in_force: "GTC" });
    for (const o of [gtd, day, gtc]) expect((await place(f.api, acct, [o])).status).toBe(200);
    await clock(f.api, "2026-11-18T15:00:00Z");
    expect(await status(day.client_order_id)).toBe("CANCELLED");
    expect(await status(gtd.client_order_id)).toBe("SUBMITTED");
    await clock(f.api, "2026-11-19T15:00:00Z");
    const g = await order(f.api, acct, gtd.client_order_id as string);
    expect(g).toMatchObject({ status: "CANCELLED", reason: expect.stringContaining("GTD") });
    expect(await status(gtc.client_order_id)).toBe("SUBMITTED");
    await clock(f.api, US_CORE);
    const missing = await place(f.api, acct, [stock({ time_in_force: "GTD" })]);
    expect(errorOf(missing)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });
});
