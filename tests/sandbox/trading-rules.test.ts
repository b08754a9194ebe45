import { describe, expect, it } from "vitest";
import { errorOf } from "../helpers/signed-fetch";
import { ACCOUNTS, clock, HK_CORE, order, place, position, rid, setPrice, stock, US_CORE, withTrading } from "./trading-helpers";

/** Order rules: sessions, short selling and locates, buying power, idempotency, preview, lists, HK lots, the other market types, reset. */
const f = withTrading();

const acct = ACCOUNTS.margin;
const status = async (id: unknown) => (await order(f.api, acct, id as string)).status;

describe("order rules (US stock)", () => {
  it("sessions: a CORE order waits through the night; NIGHT orders need an overnight-enabled instrument", async () => {
    await clock(f.api, "2026-11-18T03:00:00Z"); // 22:00 New York: overnight session
    await setPrice(f.api, "XOM", "110.00");
    const core = stock({ symbol: "XOM", order_type: "MARKET", limit_price: undefined, quantity: "1", time_in_force: "GTC" });
    await place(f.api, acct, [core]);
    expect(await status(core.client_order_id)).toBe("SUBMITTED");
    const night = await place(f.api, acct, [stock({ symbol: "XOM", support_trading_session: "NIGHT" })]);
    expect(errorOf(night)).toEqual({ status: 417, code: "OPENAPI_NO_NIGHT_TRADING_TIME" });
    const aaplNight = stock({ order_type: "LIMIT", limit_price: "500.00", quantity: "1", support_trading_session: "NIGHT" });
    await place(f.api, acct, [aaplNight]);
    expect(await status(aaplNight.client_order_id)).toBe("FILLED");
    await clock(f.api, "2026-11-18T15:00:00Z");
    expect(await status(core.client_order_id)).toBe("FILLED");
    await clock(f.api, US_CORE);
  });

  it("SHORT: margin only; a hard-to-borrow name needs a locate covering the quantity", async () => {
    await setPrice(f.api, "GOOGL", "160.00");
    const etb = stock({ symbol: "GOOGL", side: "SHORT", order_type: "MARKET", limit_price: undefined, quantity: "5" });
    expect((await place(f.api, acct, [etb])).status).toBe(200);
    expect(await position(f.api, acct, "GOOGL")).toBe("-5");
    const cashShort = await place(f.api, ACCOUNTS.cash, [stock({ symbol: "GOOGL", side: "SHORT", quantity: "1" })]);
    expect(errorOf(cashShort)).toEqual({ status: 417, code: "SHORT_NOT_ALLOWED" });
    const locate = await f.api.op("getStockLocate", "resource", { query: { symbol: "AMZN" } });
    expect(locate.body.short_type).toBe("HTB");
    const tooMany = await place(f.api, acct, [
      stock({ symbol: "AMZN", side: "SHORT", quantity: String(Number(locate.body.available_num) + 1) }),
    ]);
    expect(errorOf(tooMany)).toEqual({ status: 417, code: "LOCATE_REQUIRED" });
    expect(
      (await place(f.api, acct, [stock({ symbol: "AMZN", side: "SHORT", quantity: "10", order_type: "MARKET", limit_price: undefined })]))
        .status,
    ).toBe(200);
    const after = await f.api.op("getStockLocate", "resource", { query: { symbol: "AMZN" } });
    expect(Number(after.body.available_num)).toBe(Number(locate.body.available_num) - 10); // the fill used up part of the locate
  });

  it("buying power: a CASH account cannot spend more than its cash; a SELL needs the shares", async () => {
    const huge = await place(f.api, ACCOUNTS.cash, [stock({ quantity: "100000", limit_price: "100.00" })]);
    expect(errorOf(huge)).toEqual({ status: 417, code: "INSUFFICIENT_BUYING_POWER" });
    const naked = await place(f.api, acct, [stock({ symbol: "TLT", side: "SELL", quantity: "10" })]);
    expect(errorOf(naked)).toEqual({ status: 417, code: "INSUFFICIENT_POSITION" });
  });

  it("buying power: a refused order leaves the balances as they were (no row created for a currency never held)", async () => {
    const rows = async () =>
      (
        await f.sb.engine.query<{ r: string }>(
          "SELECT string_agg(currency || ' ' || cash_balance || ' ' || held_amount, ', ' ORDER BY currency) AS r FROM sandbox.cash_balances WHERE account_id = $1",
          [ACCOUNTS.cash],
        )
      ).rows[0].r;
    const before = await rows();
    const refused = await place(f.api, ACCOUNTS.cash, [
      stock({ market: "CN", symbol: "600519", quantity: "100000", limit_price: "1482.00" }),
    ]);
    expect(errorOf(refused)).toEqual({ status: 417, code: "INSUFFICIENT_BUYING_POWER" });
    expect(refused.body.message).toMatch(/^Account \S+ has CNH [\d.,-]+ buying power; the order needs [\d.,]+\.$/);
    expect(await rows()).toBe(before);
  });

  it("FAILED with a reason: a SELL whose shares were journaled away before the market reached it", async () => {
    await setPrice(f.api, "INTC", "22.00");
    await place(f.api, acct, [stock({ symbol: "INTC", order_type: "MARKET", limit_price: undefined, quantity: "7" })]);
    const held = await position(f.api, acct, "INTC");
    const sell = stock({ symbol: "INTC", side: "SELL", limit_price: "25.00", quantity: "7", time_in_force: "GTC" });
    expect((await place(f.api, acct, [sell])).status).toBe(200);
    const pj = await f.api.op("createPositionJournal", "resource", {
      body: {
        client_request_id: rid("pj"),
        from_account: acct,
        to_account: ACCOUNTS.cash,
        instrument_type: "EQUITY",
        market: "US",
        symbol: "INTC",
        quantity: held,
      },
    });
    expect(pj.body.status).toBe("COMPLETED");
    await setPrice(f.api, "INTC", "26.00");
    expect(await order(f.api, acct, sell.client_order_id as string)).toMatchObject({
      status: "FAILED",
      reason: expect.stringContaining("INTC"),
    });
    const bad = await f.api.op("replaceOrder", "resource", {
      body: { account_id: acct, modify_orders: [{ combo_type: "NORMAL", client_order_id: sell.client_order_id, time_in_force: "GTD" }] },
    });
    expect(errorOf(bad)).toEqual({ status: 417, code: "ORDER_NOT_MODIFIABLE" });
  });

  it("replace validates time_in_force and expire_date", async () => {
    const o = stock({ limit_price: "1.00", quantity: "1", time_in_force: "GTC" });
    await place(f.api, acct, [o]);
    const gtd = (body: Record<string, unknown>) =>
      f.api.op("replaceOrder", "resource", {
        body: { account_id: acct, modify_orders: [{ combo_type: "NORMAL", client_order_id: o.client_order_id, ...body }] },
      });
    expect(errorOf(await gtd({ time_in_force: "GTD" }))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect((await gtd({ time_in_force: "GTD", expire_date: "2026-11-20" })).status).toBe(200);
    expect(await order(f.api, acct, o.client_order_id as string)).toMatchObject({ time_in_force: "GTD", expire_date: "2026-11-20" });
  });

  it("idempotency: the same client_order_id and body returns the first order; another body is 417", async () => {
    const o = stock({ limit_price: "10.00", quantity: "1" });
    const a = await place(f.api, acct, [o]);
    const b = await place(f.api, acct, [o]);
    expect(b.body).toEqual(a.body);
    const c = await place(f.api, acct, [{ ...o, limit_price: "11.00" }]);
    expect(errorOf(c)).toEqual({ status: 417, code: "DUPLICATE_CLIENT_ORDER_ID" });
    const hist = await f.api.op("listOrderHistory", "resource", { query: { account_id: acct, page_size: 200 } });
    expect(hist.body.data.filter((g: { client_order_id: string }) => g.client_order_id === o.client_order_id)).toHaveLength(1);
  });

  it("preview: estimated cost and fee detail; requires support_trading_session", async () => {
    const p = await f.api.op("previewOrder", "resource", {
      body: { account_id: acct, new_orders: [stock({ side: "SELL", quantity: "10", limit_price: "100.00" })] },
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      estimated_cost: expect.any(String),
      estimated_transaction_fee: expect.any(String),
      estimated_transaction_fee_detail: {
        commission: { actual_commission: expect.any(String), receivable_commission: expect.any(String) },
        fees: expect.any(Array),
      },
    });
    const missing = await f.api.op("previewOrder", "resource", {
      body: { account_id: acct, new_orders: [stock({ support_trading_session: undefined })] },
    });
    expect(errorOf(missing)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });

  it("lists: open orders and history as groups, paged by last_client_order_id (legacy) and pagination_key (resource)", async () => {
    for (let i = 0; i < 3; i += 1) await place(f.api, acct, [stock({ limit_price: "1.00", quantity: "1", time_in_force: "GTC" })]);
    const legacy = await f.api.op("listOpenOrders", "legacy", { query: { account_id: acct, page_size: 2 } });
    expect(Array.isArray(legacy.body)).toBe(true);
    expect(legacy.body).toHaveLength(2);
    const next = await f.api.op("listOpenOrders", "legacy", {
      query: { account_id: acct, page_size: 2, last_client_order_id: legacy.body[1].client_order_id },
    });
    expect(next.body[0].client_order_id).not.toBe(legacy.body[0].client_order_id);
    const res = await f.api.op("listOrderHistory", "resource", { query: { account_id: acct, page_size: 3 } });
    expect(res.body.pagination_key).toBeDefined();
    expect(res.body.data[0]).toMatchObject({ client_order_id: expect.any(String), combo_type: "NORMAL", orders: expect.any(Array) });
  });
});

describe("HK stocks: board lots and ODD_LOT_LIMIT", () => {
  it("quantities are whole lots; odd lots go through ODD_LOT_LIMIT; no_party_ids is accepted", async () => {
    await clock(f.api, HK_CORE);
    await setPrice(f.api, "00700", "400.00", { market: "HK" });
    const hk = {
      market: "HK",
      symbol: "00700",
      limit_price: "401.00",
      no_party_ids: [{ party_id: "BCAN123", party_id_source: "D", party_role: "3" }],
    };
    const odd = await place(f.api, acct, [stock({ ...hk, quantity: "150" })]);
    expect(errorOf(odd)).toEqual({ status: 417, code: "INVALID_LOT_SIZE" });
    const lot = stock({ ...hk, quantity: "200" });
    expect((await place(f.api, acct, [lot])).status).toBe(200);
    expect(await order(f.api, acct, lot.client_order_id as string)).toMatchObject({ status: "FILLED", no_party_ids: hk.no_party_ids });
    const oddLot = stock({ ...hk, order_type: "ODD_LOT_LIMIT", quantity: "50" });
    expect((await place(f.api, acct, [oddLot])).status).toBe(200);
    expect(await status(oddLot.client_order_id)).toBe("FILLED");
    const tooBig = await place(f.api, acct, [stock({ ...hk, order_type: "ODD_LOT_LIMIT", quantity: "100" })]);
    expect(errorOf(tooBig)).toEqual({ status: 417, code: "INVALID_LOT_SIZE" });
    const usOnly = await place(f.api, acct, [stock({ order_type: "ODD_LOT_LIMIT" })]);
    expect(errorOf(usOnly)).toEqual({ status: 417, code: "UNSUPPORTED_ORDER_TYPE" });
    await clock(f.api, US_CORE);
  });

  it("the other market-specific types: ENHANCED_LIMIT, AT_AUCTION, AT_AUCTION_LIMIT (HK), CN LIMIT only, MARKET_ON_OPEN/CLOSE in the US core session", async () => {
    await clock(f.api, HK_CORE);
    await setPrice(f.api, "00005", "70.00", { market: "HK" });
    const hk = { market: "HK", symbol: "00005", quantity: "400" };
    for (const o of [
      stock({ ...hk, order_type: "ENHANCED_LIMIT", limit_price: "70.10" }),
      stock({ ...hk, order_type: "AT_AUCTION", limit_price: undefined }),
      stock({ ...hk, order_type: "AT_AUCTION_LIMIT", limit_price: "70.10" }),
    ]) {
      expect((await place(f.api, acct, [o])).status).toBe(200);
      expect(await status(o.client_order_id)).toBe("FILLED");
    }
    const cnMarket = await place(f.api, ACCOUNTS.marginCn, [
      stock({ market: "CN", symbol: "601318", order_type: "MARKET", limit_price: undefined, quantity: "100" }),
    ]);
    expect(errorOf(cnMarket)).toEqual({ status: 417, code: "UNSUPPORTED_ORDER_TYPE" });
    const cn = stock({ market: "CN", symbol: "601318", limit_price: "60.00", quantity: "100" });
    expect((await place(f.api, ACCOUNTS.marginCn, [cn])).status).toBe(200);
    expect((await order(f.api, ACCOUNTS.marginCn, cn.client_order_id as string)).status).toBe("FILLED");
    await clock(f.api, "2026-11-17T13:00:00Z"); // 08:00 New York: pre-market
    const moo = stock({
      symbol: "KO",
      order_type: "MARKET_ON_OPEN",
      limit_price: undefined,
      quantity: "1",
      support_trading_session: "ALL",
    });
    await place(f.api, acct, [moo]);
    expect(await status(moo.client_order_id)).toBe("SUBMITTED");
    await clock(f.api, US_CORE);
    expect(await status(moo.client_order_id)).toBe("FILLED");
    const moc = stock({ symbol: "KO", order_type: "MARKET_ON_CLOSE", limit_price: undefined, quantity: "1" });
    await place(f.api, acct, [moc]);
    expect(await status(moc.client_order_id)).toBe("FILLED");
  });

  it("reset clears orders and reloads the market", async () => {
    const o = stock({ limit_price: "1.00", quantity: "1" });
    await place(f.api, acct, [o]);
    expect((await f.api.call("POST", "/sandbox/reset", { body: {} })).status).toBe(200);
    await f.api.login();
    const r = await f.api.op("getOrder", "resource", { query: { account_id: acct, client_order_id: o.client_order_id as string } });
    expect(errorOf(r)).toEqual({ status: 417, code: "ORDER_NOT_FOUND" });
  });
});
