import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "../helpers/signed-fetch";
import { ACCOUNTS, clock, HK_CORE, order, place, setPrice, stock, US_CORE, withTrading } from "./trading-helpers";

/** Combo orders (spec "Combo order behaviour" rules 1–6). */
const f = withTrading();

const acct = ACCOUNTS.margin;
const st = async (id: unknown) => (await order(f.api, acct, id as string)).status;

describe("combo orders", () => {
  it("MASTER fill activates STOP_PROFIT and STOP_LOSS; the take-profit's execution cancels the stop-loss", async () => {
    await setPrice(f.api, "NVDA", "130.00");
    const master = stock({ combo_type: "MASTER", symbol: "NVDA", limit_price: "125.00", quantity: "10" });
    const tp = stock({
      combo_type: "STOP_PROFIT",
      symbol: "NVDA",
      side: "SELL",
      limit_price: "140.00",
      quantity: "10",
      time_in_force: "GTC",
    });
    const sl = stock({
      combo_type: "STOP_LOSS",
      symbol: "NVDA",
      side: "SELL",
      order_type: "STOP_LOSS",
      limit_price: undefined,
      stop_price: "115.00",
      quantity: "10",
      time_in_force: "GTC",
    });
    const r = await place(f.api, acct, [master, tp, sl], { client_combo_order_id: `combo${Date.now()}` });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(3);
    const group = (await f.api.op("getOrder", "resource", { query: { account_id: acct, client_order_id: tp.client_order_id as string } }))
      .body;
    expect(group).toMatchObject({
      client_order_id: master.client_order_id,
      combo_type: "MASTER",
      client_combo_order_id: expect.any(String),
    });
    expect(group.orders.map((o: { status: string }) => o.status)).toEqual(["SUBMITTED", "PENDING", "PENDING"]);
    await setPrice(f.api, "NVDA", "124.00");
    expect(await st(master.client_order_id)).toBe("FILLED");
    expect(await st(tp.client_order_id)).toBe("SUBMITTED");
    expect(await st(sl.client_order_id)).toBe("SUBMITTED");
    await setPrice(f.api, "NVDA", "141.00");
    expect(await st(tp.client_order_id)).toBe("FILLED");
    expect(await order(f.api, acct, sl.client_order_id as string)).toMatchObject({
      status: "CANCELLED",
      reason: expect.stringContaining("OCO"),
    });
  });

  it("MASTER with only a STOP_LOSS: the stop fires after the master fills; cancelling a master cancels its children", async () => {
    await setPrice(f.api, "AMD", "150.00");
    const master = stock({ combo_type: "MASTER", symbol: "AMD", order_type: "MARKET", limit_price: undefined, quantity: "4" });
    const sl = stock({
      combo_type: "STOP_LOSS",
      symbol: "AMD",
      side: "SELL",
      order_type: "STOP_LOSS",
      limit_price: undefined,
      stop_price: "140.00",
      quantity: "4",
      time_in_force: "GTC",
    });
    await place(f.api, acct, [master, sl]);
    expect(await st(sl.client_order_id)).toBe("SUBMITTED");
    await setPrice(f.api, "AMD", "139.00");
    expect(await st(sl.client_order_id)).toBe("FILLED");

    const m2 = stock({ combo_type: "MASTER", symbol: "AMD", limit_price: "100.00", quantity: "4" });
    const tp2 = stock({ combo_type: "STOP_PROFIT", symbol: "AMD", side: "SELL", limit_price: "200.00", quantity: "4" });
    await place(f.api, acct, [m2, tp2]);
    await f.api.op("cancelOrder", "resource", { body: { account_id: acct, client_order_id: m2.client_order_id } });
    expect(await st(tp2.client_order_id)).toBe("CANCELLED");
  });

  it("a MASTER cancelled after a partial fill starts its children for the filled quantity", async () => {
    await setPrice(f.api, "TSLA", "250.00", { liquidity: "3" });
    const master = stock({ combo_type: "MASTER", symbol: "TSLA", limit_price: "251.00", quantity: "10" });
    const sl = stock({
      combo_type: "STOP_LOSS",
      symbol: "TSLA",
      side: "SELL",
      order_type: "STOP_LOSS",
      limit_price: undefined,
      stop_price: "200.00",
      quantity: "10",
      time_in_force: "GTC",
    });
    await place(f.api, acct, [master, sl]);
    expect(await order(f.api, acct, master.client_order_id as string)).toMatchObject({ status: "PARTIAL_FILLED", filled_quantity: "3" });
    await f.api.op("cancelOrder", "resource", { body: { account_id: acct, client_order_id: master.client_order_id } });
    expect(await st(master.client_order_id)).toBe("CANCELLED");
    expect(await order(f.api, acct, sl.client_order_id as string)).toMatchObject({ status: "SUBMITTED", total_quantity: "3" });
    await setPrice(f.api, "TSLA", "250.00", { liquidity: "100000" });
  });

  it("OCO: the first execution of one order cancels the other", async () => {
    await setPrice(f.api, "DIS", "96.00");
    const low = stock({ combo_type: "OCO", symbol: "DIS", limit_price: "90.00", quantity: "3" });
    const high = stock({
      combo_type: "OCO",
      symbol: "DIS",
      order_type: "STOP_LOSS",
      limit_price: undefined,
      stop_price: "100.00",
      quantity: "3",
    });
    expect((await place(f.api, acct, [low, high])).status).toBe(200);
    await setPrice(f.api, "DIS", "101.00");
    expect(await st(high.client_order_id)).toBe("FILLED");
    expect(await st(low.client_order_id)).toBe("CANCELLED");
  });

  it("ND-broker US-stock subset: OTO and OTOCO are refused for US stocks", async () => {
    const oto = await place(f.api, acct, [stock({ combo_type: "OTO" }), stock({ combo_type: "OTO", side: "SELL" })]);
    expect(errorOf(oto)).toEqual({ status: 417, code: "UNSUPPORTED_COMBO_TYPE" });
    const bad = await place(f.api, acct, [stock({ combo_type: "MASTER" }), stock({ combo_type: "STOP_PROFIT", side: "BUY" })]);
    expect(errorOf(bad)).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });

  describe("HK stocks (OTO and OTOCO are served outside US stocks)", () => {
    beforeAll(() => clock(f.api, HK_CORE));
    afterAll(() => clock(f.api, US_CORE));
    const hk = (o: Record<string, unknown>) => stock({ market: "HK", symbol: "09988", quantity: "100", ...o });

    it("OTO: the first order's fill triggers the second", async () => {
      await setPrice(f.api, "09988", "98.00", { market: "HK" });
      const first = hk({ combo_type: "OTO", limit_price: "97.00" });
      const second = hk({ combo_type: "OTO", side: "SELL", limit_price: "105.00", time_in_force: "GTC" });
      await place(f.api, acct, [first, second]);
      expect(await st(second.client_order_id)).toBe("PENDING");
      await setPrice(f.api, "09988", "96.00", { market: "HK" });
      expect(await st(first.client_order_id)).toBe("FILLED");
      expect(await st(second.client_order_id)).toBe("SUBMITTED");
      await setPrice(f.api, "09988", "106.00", { market: "HK" });
      expect(await st(second.client_order_id)).toBe("FILLED");
    });

    it("OTOCO: the first order's fill starts an OCO pair", async () => {
      await setPrice(f.api, "09988", "98.00", { market: "HK" });
      const first = hk({ combo_type: "OTOCO", limit_price: "99.00" });
      const tp = hk({ combo_type: "OTOCO", side: "SELL", limit_price: "110.00", time_in_force: "GTC" });
      const sl = hk({
        combo_type: "OTOCO",
        side: "SELL",
        order_type: "STOP_LOSS",
        limit_price: undefined,
        stop_price: "90.00",
        time_in_force: "GTC",
      });
      await place(f.api, acct, [first, tp, sl]);
      expect(await st(first.client_order_id)).toBe("FILLED");
      expect(await st(tp.client_order_id)).toBe("SUBMITTED");
      await setPrice(f.api, "09988", "89.00", { market: "HK" });
      expect(await st(sl.client_order_id)).toBe("FILLED");
      expect(await st(tp.client_order_id)).toBe("CANCELLED");
    });
  });
});
