import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf } from "../helpers/signed-fetch";
import { engines, startFixture, type Fixture } from "./fixture";

describe.each(engines)("instruments, option contracts and calendars on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
  });
  afterAll(() => f?.close());

  it("lists ~50 stock instruments across US, HK and CN with margin ratios, paging in both styles", async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect response bodies loosely
    const all: Record<string, any>[] = [];
    let key: string | undefined;
    do {
      const r = await f.api.op("listStockInstruments", "resource", { query: { page_size: 20, ...(key ? { pagination_key: key } : {}) } });
      all.push(...r.body.data);
      key = r.body.pagination_key;
    } while (key);
    expect(all.length).toBeGreaterThanOrEqual(45);
    expect(new Set(all.map((i) => i.category))).toEqual(new Set(["US_STOCK", "HK_STOCK", "CN_STOCK"]));
    for (const k of [
      "margin_requirement_long",
      "margin_requirement_short",
      "intraday_margin_long",
      "intraday_margin_short",
      "maintenance_margin_long",
      "maintenance_margin_short",
      "lot_size",
      "sub_category",
      "exchange_code",
      "status",
    ]) {
      expect(all[0][k]).toBeDefined();
    }
    const legacy = await f.api.op("listStockInstruments", "legacy", {
      query: { page_size: 20, last_instrument_id: all[19].instrument_id },
    });
    expect(legacy.body.map((i: { instrument_id: string }) => i.instrument_id)).toEqual(all.slice(20, 40).map((i) => i.instrument_id));
  });

  it.each(["COMMON_STOCK", "ETF", "PREFERRED_STOCK", "WARRANT", "UNITS", "RIGHT"])("filters by sub_category %s", async (sub) => {
    const r = await f.api.op("listStockInstruments", "resource", { query: { sub_category: sub, page_size: 200 } });
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.body.data.every((i: { sub_category: string }) => i.sub_category === sub)).toBe(true);
  });

  it("filters by symbols and category, and rejects unknown enum values", async () => {
    const r = await f.api.op("listStockInstruments", "legacy", { query: { symbols: "AAPL,00700", category: "HK_STOCK" } });
    expect(r.body.map((i: { symbol: string }) => i.symbol)).toEqual(["00700"]);
    expect(errorOf(await f.api.op("listStockInstruments", "resource", { query: { sub_category: "BOND" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
  });

  it("answers stock locate and corporate action details", async () => {
    const l = await f.api.op("getStockLocate", "resource", { query: { symbol: "AAPL" } });
    expect(l.body).toEqual({
      symbol: "AAPL",
      shortable: "Y",
      short_type: expect.stringMatching(/ETB|HTB/),
      available_num: expect.any(String),
      short_interest_rate: expect.any(String),
    });
    expect(errorOf(await f.api.op("getStockLocate", "legacy", { query: { symbol: "NOPE" } }))).toEqual({
      status: 417,
      code: "INSTRUMENT_NOT_FOUND",
    });
    const ca = await f.api.op("getCorporateAction", "legacy", { query: { event_id: "CA-NVDA-SPLIT-1" } });
    expect(ca.body).toMatchObject({
      event_id: "CA-NVDA-SPLIT-1",
      event_type: "FORWARD_SPLIT",
      from: { symbol: "NVDA" },
      to: [{ payouts: [{ to_ratio: "10" }] }],
    });
    for (const k of ["event_version", "instrument_id", "category", "record_date", "ex_date", "payment_date", "final_pay_date"])
      expect(ca.body[k]).toBeDefined();
    expect(errorOf(await f.api.op("getCorporateAction", "resource", { query: { event_id: "nope" } }))).toEqual({
      status: 417,
      code: "CORPORATE_ACTION_NOT_FOUND",
    });
  });

  it("lists option contracts with every filter, page_size + last_instrument_id, bare arrays on both paths", async () => {
    type C = {
      instrument_id: string;
      symbol: string;
      root_symbol: string;
      option_type: string;
      strike_price: string;
      expiration_date: string;
      ppind: boolean;
      deliverables?: unknown[];
    };
    const get = async (query: Record<string, string | number>, style: "resource" | "legacy" = "resource") => {
      const r = await f.sha1.op("listOptionContracts", style, { query: { page_size: 200, ...query } });
      expect(r.status).toBe(200);
      expect(Array.isArray(r.body)).toBe(true);
      return r.body as C[];
    };
    const aapl = await get({ root_symbol: "AAPL", category: "US_OPTION" });
    expect(aapl.length).toBe(30);
    expect(aapl.every((c) => c.root_symbol === "AAPL" && /^AAPL\d{6}[CP]\d{8}$/.test(c.symbol))).toBe(true);
    expect(aapl[0].deliverables).toBeUndefined();
    expect((await get({ root_symbol: "AAPL", show_deliverables: "true" }))[0].deliverables).toEqual([
      expect.objectContaining({ symbol: "AAPL", amount: "100" }),
    ]);
    expect((await get({ root_symbol: "AAPL", option_type: "PUT" })).every((c) => c.option_type === "PUT")).toBe(true);
    const strikes = await get({ root_symbol: "AAPL", strike_price_gte: "225", strike_price_lte: "230" });
    expect(strikes.length).toBeGreaterThan(0);
    expect(strikes.every((c) => Number(c.strike_price) >= 225 && Number(c.strike_price) <= 230)).toBe(true);
    const first = [...new Set(aapl.map((c) => c.expiration_date))].sort()[0];
    expect((await get({ root_symbol: "AAPL", expiration_date: first })).every((c) => c.expiration_date === first)).toBe(true);
    expect((await get({ root_symbol: "AAPL", expiration_date_gte: first, expiration_date_lte: first })).length).toBe(10);
    expect(await get({ root_symbol: "NVDA", ppind: "true" })).toHaveLength(0);
    expect((await get({ root_symbol: "SPY", style: "AMERICAN", status: "ACTIVE" })).length).toBe(30);
    const padded = aapl[0].symbol.replace("AAPL", "AAPL  ");
    expect((await get({ option_symbol: padded })).map((c) => c.symbol)).toEqual([aapl[0].symbol]);
    const page1 = await get({ page_size: 7 }, "legacy");
    const page2 = await get({ page_size: 7, last_instrument_id: page1[6].instrument_id });
    expect(page1).toHaveLength(7);
    expect(page2[0].instrument_id > page1[6].instrument_id).toBe(true);
    expect(errorOf(await f.api.op("listOptionContracts", "resource", { query: { category: "HK_OPTION" } }))).toEqual({
      status: 417,
      code: "UNSUPPORTED_CATEGORY",
    });
    expect(errorOf(await f.api.op("listOptionContracts", "resource", { query: { page_size: 500 } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
  });

  it("serves trading calendars for US, HK and CN, with OPTION for US", async () => {
    const us = await f.api.op("listTradeCalendar", "resource", { query: { market: "US", year: 2026 } });
    expect(us.body.data).toHaveLength(365);
    const day = (d: string) => us.body.data.find((x: { date: string }) => x.date === d);
    expect(day("2026-07-03")).toMatchObject({ is_trading_day: false });
    expect(day("2026-07-02")).toMatchObject({ is_trading_day: true, settlement_date: "2026-07-06", is_settlement_day: true });
    expect(day("2026-11-27")).toMatchObject({ is_trading_day: true, is_early_close: true });
    const hk = await f.api.op("listTradeCalendar", "legacy", { query: { market: "HK", start_date: "2026-02-13", end_date: "2026-02-20" } });
    expect(hk.body.map((d: { date: string; is_trading_day: boolean }) => [d.date, d.is_trading_day])).toEqual([
      ["2026-02-13", true],
      ["2026-02-14", false],
      ["2026-02-15", false],
      ["2026-02-16", true],
      ["2026-02-17", false],
      ["2026-02-18", false],
      ["2026-02-19", false],
      ["2026-02-20", true],
    ]);
    expect(hk.body[0].settlement_date).toBe("2026-02-20");
    const cn = await f.api.op("listTradeCalendar", "resource", {
      query: { market: "CN", start_date: "2026-10-01", end_date: "2026-10-08" },
    });
    expect(cn.body.data.filter((d: { is_trading_day: boolean }) => d.is_trading_day).map((d: { date: string }) => d.date)).toEqual([
      "2026-10-08",
    ]);
    expect(
      (await f.api.op("listTradeCalendar", "resource", { query: { market: "US", instrument_type: "OPTION", year: 2026 } })).status,
    ).toBe(200);
    expect(errorOf(await f.api.op("listTradeCalendar", "resource", { query: { market: "HK", instrument_type: "OPTION" } }))).toEqual({
      status: 417,
      code: "UNSUPPORTED_CATEGORY",
    });
    expect(errorOf(await f.api.op("listTradeCalendar", "resource", { query: {} }))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(
      errorOf(
        await f.api.op("listTradeCalendar", "resource", { query: { market: "US", start_date: "2025-01-01", end_date: "2026-06-01" } }),
      ),
    ).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
  });
});
