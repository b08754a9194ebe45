import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "../helpers/signed-fetch";
import type { Fixture } from "./fixture";
import { ACCOUNTS, clock, fund, order, place, position, rid, setPrice, startTrading, stock, US_CORE } from "./trading-helpers";

/** US options: option level per strategy, single and multi-leg orders, exercise, expiry. */
let f: Fixture;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
let calls: any[];
beforeAll(async () => {
  f = await startTrading();
  const r = await f.api.op("listOptionContracts", "legacy", { query: { root_symbol: "AAPL", option_type: "CALL", page_size: 50 } });
  calls = r.body.sort(
    (a: { expiration_date: string; strike_price: string }, b: { expiration_date: string; strike_price: string }) =>
      a.expiration_date.localeCompare(b.expiration_date) || Number(a.strike_price) - Number(b.strike_price),
  );
  await fund(f.api, ACCOUNTS.optionsLv2, "100000.00");
}, 60_000);
afterAll(async () => f?.close());

const opt = (o: Record<string, unknown>) =>
  stock({ instrument_type: "OPTION", order_type: "LIMIT", quantity: "1", time_in_force: "GTC", ...o });

describe("US options", () => {
  it("an option order below the account's option level is rejected (LV1 may not buy a call)", async () => {
    const c = calls[0];
    const r = await place(f.api, ACCOUNTS.optionsLv1, [opt({ symbol: c.symbol, limit_price: "50.00" })]);
    expect(errorOf(r)).toEqual({ status: 417, code: "OPTION_LEVEL_TOO_LOW" });
    expect(r.body.message).toContain("LV2");
    const noPermission = await place(f.api, ACCOUNTS.margin, [opt({ symbol: c.symbol, limit_price: "50.00" })]);
    expect(errorOf(noPermission)).toEqual({ status: 417, code: "TRADING_PERMISSION_DENIED" });
    const market = await place(f.api, ACCOUNTS.optionsLv2, [opt({ symbol: c.symbol, order_type: "MARKET", limit_price: undefined })]);
    expect(errorOf(market)).toEqual({ status: 417, code: "UNSUPPORTED_ORDER_TYPE" });
  });

  it("single leg: BUY a call by OCC symbol (LV2) fills at the ask; per-contract commission; OPTION_TRADE activity", async () => {
    const acct = ACCOUNTS.optionsLv2;
    const c = calls[2];
    await setPrice(f.api, c.symbol, "5.00", { category: "US_OPTION" });
    const o = opt({ symbol: c.symbol, limit_price: "5.10", quantity: "2" });
    expect((await place(f.api, acct, [o])).status).toBe(200);
    const rec = await order(f.api, acct, o.client_order_id as string);
    expect(rec).toMatchObject({
      status: "FILLED",
      instrument_type: "OPTION",
      category: "US_OPTION",
      option_strategy: "SINGLE",
      commission: { receivable_commission: "1.30" },
    });
    expect(rec.legs[0]).toMatchObject({
      symbol: c.symbol,
      option_type: "CALL",
      strike_price: expect.any(String),
      option_contract_multiplier: "100",
    });
    expect(await position(f.api, acct, c.symbol)).toBe("2");
    const acts = await f.api.op("listAccountActivities", "resource", {
      query: { account_id: acct, activity_types: "TRADE", page_size: 5 },
    });
    expect(acts.body.data[0]).toMatchObject({ activity_type: "TRADE", activity_sub_type: "OPTION_TRADE" });
  });

  it("single leg given as a leg (root, strike, expiry, type); STOP_LOSS on an option", async () => {
    const acct = ACCOUNTS.optionsLv2;
    const c = calls[2];
    const leg = {
      instrument_type: "OPTION",
      market: "US",
      symbol: "AAPL",
      side: "SELL",
      quantity: "1",
      strike_price: c.strike_price,
      option_expire_date: c.expiration_date,
      option_type: "CALL",
    };
    const stop = opt({
      symbol: "AAPL",
      side: "SELL",
      order_type: "STOP_LOSS",
      limit_price: undefined,
      stop_price: "4.00",
      legs: [leg],
      option_strategy: "SINGLE",
    });
    expect((await place(f.api, acct, [stop])).status).toBe(200);
    await setPrice(f.api, c.symbol, "3.90", { category: "US_OPTION" });
    expect(await order(f.api, acct, stop.client_order_id as string)).toMatchObject({ status: "FILLED", symbol: c.symbol });
    expect(await position(f.api, acct, c.symbol)).toBe("1");
  });

  it("multi-leg VERTICAL: needs LV3; fills as one unit when the net debit is within the limit", async () => {
    const acct = ACCOUNTS.optionsLv2;
    const [lo, hi] = [calls[1], calls[3]];
    await setPrice(f.api, lo.symbol, "8.00", { category: "US_OPTION" });
    await setPrice(f.api, hi.symbol, "3.00", { category: "US_OPTION" });
    const legs = [
      { instrument_type: "OPTION", market: "US", symbol: lo.symbol, side: "BUY", quantity: "1" },
      { instrument_type: "OPTION", market: "US", symbol: hi.symbol, side: "SELL", quantity: "1" },
    ];
    const spread = () => opt({ symbol: "AAPL", option_strategy: "VERTICAL", legs, limit_price: "5.20", quantity: "2" });
    expect(errorOf(await place(f.api, acct, [spread()]))).toEqual({ status: 417, code: "OPTION_LEVEL_TOO_LOW" });
    const up = await f.api.op("updateVirtualAccount", "resource", {
      body: { client_request_id: rid("lv3"), account_id: acct, option_level: "LV3" },
    });
    expect(up.status).toBe(200);
    const o = spread();
    expect((await place(f.api, acct, [o])).status).toBe(200);
    const rec = await order(f.api, acct, o.client_order_id as string);
    expect(rec).toMatchObject({ status: "FILLED", option_strategy: "VERTICAL", filled_quantity: "2" });
    expect(rec.legs).toHaveLength(2);
    expect(await position(f.api, acct, hi.symbol)).toBe("-2");
  });

  it("COVERED_STOCK at LV1: 100 shares and one written call fill together at the net debit", async () => {
    const acct = ACCOUNTS.optionsLv1;
    const c = calls[3];
    await setPrice(f.api, "AAPL", "230.00");
    await setPrice(f.api, c.symbol, "4.00", { category: "US_OPTION" });
    const legs = [
      { instrument_type: "EQUITY", market: "US", symbol: "AAPL", side: "BUY", quantity: "100" },
      { instrument_type: "OPTION", market: "US", symbol: c.symbol, side: "SELL", quantity: "1" },
    ];
    const o = opt({ symbol: "AAPL", option_strategy: "COVERED_STOCK", legs, limit_price: "226.50", quantity: "1" });
    const shares = Number(await position(f.api, acct, "AAPL"));
    expect((await place(f.api, acct, [o])).status).toBe(200);
    const rec = await order(f.api, acct, o.client_order_id as string);
    expect(rec).toMatchObject({ status: "FILLED", option_strategy: "COVERED_STOCK" });
    expect(Number(rec.filled_price)).toBeLessThanOrEqual(226.5);
    expect(Number(await position(f.api, acct, "AAPL"))).toBe(shares + 100);
    expect(await position(f.api, acct, c.symbol)).toBe("-1");
  });

  it("exercise: a long call delivers 100 shares a contract at the strike; replay is idempotent; more than held is refused", async () => {
    const acct = ACCOUNTS.optionsLv2;
    const c = calls[2];
    const shares = Number(await position(f.api, acct, "AAPL"));
    const body = { account_id: acct, client_request_id: rid("ex"), symbol: c.symbol, quantity: "1", exercise_type: "EXERCISE" };
    const r = await f.api.op("exerciseOption", "legacy", { body });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ client_request_id: body.client_request_id, status: "COMPLETED", exercise_id: expect.any(String) });
    expect(Number(await position(f.api, acct, "AAPL"))).toBe(shares + 100);
    expect(await position(f.api, acct, c.symbol)).toBe("0");
    expect((await f.api.op("exerciseOption", "resource", { body })).body.exercise_id).toBe(r.body.exercise_id);
    const more = await f.api.op("exerciseOption", "resource", { body: { ...body, client_request_id: rid("ex") } });
    expect(errorOf(more)).toEqual({ status: 417, code: "INSUFFICIENT_POSITION" });
  });

  it("expiry: in-the-money longs are exercised unless DO_NOT_EXERCISE; out-of-the-money expire; short ITM legs are assigned", async () => {
    const acct = ACCOUNTS.optionsLv2;
    const [itm, dne, otm] = [calls[0], calls[1], calls[4]].filter((c) => c.expiration_date === calls[0].expiration_date);
    for (const c of [itm, dne, otm]) {
      await setPrice(f.api, c.symbol, "1.00", { category: "US_OPTION" });
      expect((await place(f.api, acct, [opt({ symbol: c.symbol, limit_price: "1.05" })])).status).toBe(200);
    }
    const dneBody = {
      account_id: acct,
      client_request_id: rid("dne"),
      symbol: dne.symbol,
      quantity: "1",
      exercise_type: "DO_NOT_EXERCISE",
    };
    expect((await f.api.op("exerciseOption", "resource", { body: dneBody })).body.status).toBe("COMPLETED");
    // AAPL above the two lower strikes, below the highest one
    await setPrice(f.api, "AAPL", String((Number(dne.strike_price) + Number(otm.strike_price)) / 2));
    const shares = Number(await position(f.api, acct, "AAPL"));
    const after = new Date(Date.parse(`${itm.expiration_date}T15:00:00Z`) + 86_400_000 * 3).toISOString();
    await clock(f.api, after);
    expect(await position(f.api, acct, itm.symbol)).toBe("0");
    expect(await position(f.api, acct, dne.symbol)).toBe("0");
    expect(await position(f.api, acct, otm.symbol)).toBe("0");
    expect(Number(await position(f.api, acct, "AAPL")) - shares).toBe(100);
    const acts = await f.api.op("listAccountActivities", "resource", {
      query: { account_id: acct, activity_types: "OPTION_EA", page_size: 20 },
    });
    expect(acts.body.data.map((a: { activity_sub_type: string }) => a.activity_sub_type)).toEqual(
      expect.arrayContaining(["EXERCISE", "EXPIRATION"]),
    );
    await clock(f.api, US_CORE);
  });
});
