import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines, startFixture, type Fixture } from "./fixture";
import { MarketDataSdkClient, MD_PATHS, SYMBOL_METHODS, type MdMethod } from "./market-data-client";
import type { Style } from "./trading-api-client";
import { ACCOUNTS, clock, US_CORE } from "./trading-helpers";

/**
 * Market Data contract (screeners, fundamentals, corporate actions): an app built from the SDKs' request classes
 * (market-data-client.ts) calls every route on both path styles and both signature algorithms, with the broker's key
 * and with an account holder's Trading API key, and checks shapes and the invariants that tie the data to the market.
 */
type Algo = "HMAC-SHA1" | "HMAC-SHA256";
const STYLES: Style[] = ["legacy", "resource"];
const ALGOS: Algo[] = ["HMAC-SHA1", "HMAC-SHA256"];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- contract tests read response bodies loosely
type Row = any;
/** Screener rows: {data, has_more} on legacy paths, a bare array on the SDKs' v3 paths. */
const rowsOf = (body: Row): Row[] => (Array.isArray(body) ? body : body.data);

describe.each(engines)("Market Data contract ($name)", (te) => {
  let f: Fixture;
  let holder: { app_key: string; app_secret: string };
  let holderToken: string;
  const broker = (style: Style, algo: Algo = "HMAC-SHA256") =>
    new MarketDataSdkClient(f.sb.url, f.api.appKey, f.api.appSecret, style, algo, f.api.token);
  const trader = (style: Style, algo: Algo = "HMAC-SHA256") =>
    new MarketDataSdkClient(f.sb.url, holder.app_key, holder.app_secret, style, algo, holderToken);

  beforeAll(async () => {
    f = await startFixture(te);
    await clock(f.api, US_CORE);
    // Move the market: 40 random-walk steps give every stock its own change, volume and range.
    expect((await f.api.call("POST", "/sandbox/market/tick", { body: { steps: 40 } })).status).toBe(200);
    holder = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: ACCOUNTS.margin } })).body;
    const login = new MarketDataSdkClient(f.sb.url, holder.app_key, holder.app_secret, "legacy", "HMAC-SHA256");
    const r = await login.http.request("POST", "/openapi/auth/token/create", {}, {});
    expect(r.status).toBe(200);
    holderToken = r.body.token;
  }, 60_000);
  afterAll(async () => f?.close());

  const query: Partial<Record<MdMethod, Record<string, unknown>>> = {
    get_gainers_losers: { rank_type: "DAY_1", category: "US_STOCK", sort_by: "CHANGE_RATIO", direction: "DESC" },
    get_most_active: { category: "US_STOCK", rank_type: "VOLUME" },
    get_market_sectors: { category: "US_STOCK" },
    get_market_sectors_detail: { category: "US_STOCK", sector_id: "10001" },
    get_high_dividend: { category: "US_STOCK" },
    get_52whl: { category: "US_STOCK", rank_type: "NEAR_HIGH" },
    get_corp_action: { event_types: "DIVIDEND" },
    get_snapshot: { symbols: "AAPL", category: "US_STOCK" },
  };
  const argsOf = (m: MdMethod) => query[m] ?? { symbol: /fund/.test(m) ? "SPY" : "AAPL", category: "US_STOCK" };

  describe.each(STYLES)("%s paths", (style) => {
    it.each(ALGOS)("every route answers 200 to the broker's key and a holder's key, signed %s", async (algo) => {
      for (const m of Object.keys(MD_PATHS) as MdMethod[]) {
        for (const c of [broker(style, algo), trader(style, algo)]) {
          const r = await c.call(m, argsOf(m));
          expect({
            m,
            key: c.http.appKey === holder.app_key ? "holder" : "broker",
            status: r.status,
            body: r.status === 200 ? "" : r.body,
          }).toEqual({
            m,
            key: c.http.appKey === holder.app_key ? "holder" : "broker",
            status: 200,
            body: "",
          });
        }
      }
    });

    it("gainers: sorted by change ratio, each a real instrument whose snapshot agrees; losers the reverse", async () => {
      const c = broker(style);
      const gainers = rowsOf((await c.get_gainers_losers({ rank_type: "DAY_1", direction: "DESC", page_size: 50 })).body);
      expect(gainers.length).toBeGreaterThan(10);
      const ratios = gainers.map((g: Row) => Number(g.change_ratio));
      expect(ratios).toEqual([...ratios].sort((a, b) => b - a));
      expect(new Set(ratios).size).toBeGreaterThan(5);
      const snaps = rowsOf((await c.get_snapshot(gainers.map((g: Row) => g.symbol))).body);
      for (const g of gainers) {
        const s = snaps.find((x: Row) => x.symbol === g.symbol);
        expect(s, g.symbol).toBeDefined();
        expect({ price: g.price, pre_close: g.pre_close, change_ratio: g.change_ratio, volume: g.volume }).toEqual({
          price: s.price,
          pre_close: s.pre_close,
          change_ratio: s.change_ratio,
          volume: s.volume,
        });
        expect(Number(g.market_value)).toBeGreaterThan(0);
        expect(g.relative_volume_10d).toMatch(/^\d+\.\d{4}$/);
      }
      const losers = rowsOf((await c.get_gainers_losers({ rank_type: "DAY_1", direction: "ASC", page_size: 50 })).body);
      expect(losers.map((l: Row) => l.symbol)).toEqual([...gainers.map((g: Row) => g.symbol)].reverse());
    });

    it("top active ranks by volume (or the rank type asked), with relative_volume_10d", async () => {
      const c = broker(style);
      const byVolume = rowsOf((await c.get_most_active({ page_size: 50 })).body);
      const volumes = byVolume.map((r: Row) => Number(r.volume));
      expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
      const byRel = rowsOf((await c.get_most_active({ rank_type: "RELATIVE_VOLUME_10D", page_size: 50 })).body);
      const rel = byRel.map((r: Row) => Number(r.relative_volume_10d));
      expect(rel).toEqual([...rel].sort((a, b) => b - a));
    });

    it("sectors: totals are the sum of their members; detail lists the members", async () => {
      const c = broker(style);
      const sectors = rowsOf((await c.call("get_market_sectors", { category: "US_STOCK" })).body);
      expect(sectors.map((s: Row) => s.sector_name)).toContain("Information Technology");
      const tech = sectors.find((s: Row) => s.sector_id === "10001");
      const detail = (await c.call("get_market_sectors_detail", { category: "US_STOCK", sector_id: "10001", page_size: 50 })).body;
      expect(detail.data.map((m: Row) => m.symbol).sort()).toEqual(["AAPL", "AMD", "INTC", "MSFT", "NVDA"]);
      const total = detail.data.reduce((a: number, m: Row) => a + Number(m.market_value), 0);
      expect(Number(tech.market_value)).toBeCloseTo(total, 0);
      const unknown = await c.call("get_market_sectors_detail", { category: "US_STOCK", sector_id: "99999" });
      expect([unknown.status, unknown.body.error_code]).toEqual([417, "SECTOR_NOT_FOUND"]);
    });

    it("high dividend and 52-week lists hold only what qualifies", async () => {
      const c = broker(style);
      const divs = rowsOf((await c.call("get_high_dividend", { category: "US_STOCK", page_size: 50 })).body);
      expect(divs.length).toBeGreaterThan(0);
      for (const d of divs) expect(Number(d.yield)).toBeCloseTo(Number(d.dividend) / Number(d.price), 5);
      const yields = divs.map((d: Row) => Number(d.yield));
      expect(yields).toEqual([...yields].sort((a, b) => b - a));
      for (const rank of ["NEW_HIGH", "NEAR_HIGH", "NEW_LOW", "NEAR_LOW"]) {
        const rows = rowsOf((await c.call("get_52whl", { category: "US_STOCK", rank_type: rank, page_size: 50 })).body);
        for (const r of rows) {
          const [p, hi, lo] = [Number(r.price), Number(r.high_52w), Number(r.low_52w)];
          expect(lo <= p && p <= hi, `${rank} ${r.symbol}`).toBe(true);
          if (rank === "NEAR_HIGH") expect(p).toBeGreaterThanOrEqual(hi * 0.95);
          if (rank === "NEAR_LOW") expect(p).toBeLessThanOrEqual(lo * 1.05);
        }
      }
    });

    it("ETF has fund data and no statements; a common stock has statements and no fund data", async () => {
      const c = trader(style);
      const spy = (m: MdMethod) => c.call(m, { symbol: "SPY", category: "US_STOCK" });
      const aapl = (m: MdMethod) => c.call(m, { symbol: "AAPL", category: "US_STOCK" });
      expect((await spy("get_fund_brief")).body).toMatchObject({ symbol: "SPY", fund_type: "ETF" });
      expect((await aapl("get_fund_brief")).body).toEqual({});
      expect((await spy("get_fund_holdings")).body).toHaveLength(10);
      expect((await aapl("get_fund_holdings")).body).toEqual([]);
      expect((await spy("get_financials_income")).body).toEqual([]);
      const income = (await aapl("get_financials_income")).body;
      expect(income).toHaveLength(5);
      // Trailing EPS agrees across the statements, the forecast's actuals and the indicators.
      const eps4 = income.slice(0, 4).reduce((a: number, r: Row) => a + Number(r.eps_basic), 0);
      const forecast = (await aapl("get_forecast_eps")).body;
      expect(forecast).toHaveLength(5);
      expect(forecast.slice(0, 4).reduce((a: number, r: Row) => a + Number(r.eps_actual), 0)).toBeCloseTo(eps4, 3);
      const peers = (await aapl("get_industry_comparison")).body;
      expect(Number(peers.data.find((p: Row) => p.symbol === "AAPL").eps_ttm)).toBeCloseTo(eps4, 3);
      const annual = (await c.call("get_financials_income", { symbol: "AAPL", category: "US_STOCK", type: "ANNUAL", count: 2 })).body;
      expect(annual.map((r: Row) => r.fiscal_period)).toEqual(["FY", "FY"]);
    });

    it("company profile and analyst data answer both keys; unknown symbols and categories get the documented errors", async () => {
      for (const c of [broker(style), trader(style)]) {
        const p = await c.call("get_company_profile", { symbol: "AAPL", category: "US_STOCK" });
        expect(p.body).toMatchObject({ symbol: "AAPL", name: "Apple Inc.", sector: "Information Technology" });
        expect((await c.call("get_analyst_rating", { symbol: "AAPL", category: "US_STOCK" })).body.total).toBeGreaterThan(0);
        const preferred = await c.call("get_company_profile", { symbol: "BAC.PRL", category: "US_STOCK" });
        expect(preferred.body).toMatchObject({ symbol: "BAC.PRL", instrument_type: "PREFERRED_STOCK" });
        expect((await c.call("get_financials_income", { symbol: "BAC.PRL", category: "US_STOCK" })).body).toEqual([]);
        const unknown = await c.call("get_company_profile", { symbol: "NOPE", category: "US_STOCK" });
        expect([unknown.status, unknown.body.error_code]).toEqual([417, "INSTRUMENT_NOT_FOUND"]);
        const wrongCategory = await c.call("get_fund_brief", { symbol: "SPY", category: "US_OPTION" });
        expect([wrongCategory.status, wrongCategory.body.error_code]).toEqual([417, "UNSUPPORTED_CATEGORY"]);
        const hkFilings = await c.call("get_sec_filings", { symbol: "00700", category: "HK_STOCK" });
        expect([hkFilings.status, hkFilings.body.error_code]).toEqual([417, "UNSUPPORTED_CATEGORY"]);
      }
    });
  });

  it("every ETF of the master has fund data and no statements, every common stock the reverse; dividends agree across endpoints", async () => {
    const c = broker("resource");
    const master = (await f.api.op("listStockInstruments", "resource", { query: { category: "US_STOCK", page_size: 200 } })).body.data;
    const kinds = master.filter((i: Row) => ["ETF", "COMMON_STOCK"].includes(i.sub_category));
    expect(kinds.length).toBeGreaterThan(15);
    for (const i of kinds) {
      const q = { symbol: i.symbol, category: "US_STOCK" };
      const [brief, income] = [(await c.call("get_fund_brief", q)).body, (await c.call("get_financials_income", q)).body];
      if (i.sub_category === "ETF") expect([brief.fund_type, income], i.symbol).toEqual(["ETF", []]);
      else expect([brief, income.length], i.symbol).toEqual([{}, 5]);
    }
    // The high-dividend ranking's trailing dividend is four times each quarterly amount of the dividend calendar.
    for (const d of rowsOf((await c.call("get_high_dividend", { category: "US_STOCK" })).body)) {
      const calendar = (await c.call("get_dividend_calendar", { symbol: d.symbol, category: "US_STOCK" })).body;
      expect(calendar.length, d.symbol).toBeGreaterThan(0);
      for (const e of calendar) expect(Number(e.amount) * 4, d.symbol).toBeCloseTo(Number(d.dividend), 1);
    }
  });

  it("the old most-active URL is gone: 404 NOT_FOUND on both styles, to both keys", async () => {
    for (const path of ["/openapi/market-data/screener/most-active", "/market-data/screeners/most-actives/list"]) {
      const r = await broker("legacy").http.request("GET", path, { category: "US_STOCK" });
      expect([r.status, r.body.error_code]).toEqual([404, "NOT_FOUND"]);
    }
  });

  it("the broker's key still may not call the rest of the Trading API under /openapi/instrument/", async () => {
    const r = await broker("legacy").http.request("GET", "/openapi/instrument/stock/list", { category: "US_STOCK" });
    expect([r.status, r.body.error_code]).toEqual([401, "ROUTE_NOT_PERMITTED"]);
  });

  it("paging: page_index / page_size with has_more on legacy paths; the same seed gives the same data", async () => {
    const c = broker("legacy");
    const all = (await c.get_most_active({ page_size: 50 })).body;
    const p1 = (await c.get_most_active({ page_size: 5, page_index: 1 })).body;
    const p2 = (await c.get_most_active({ page_size: 5, page_index: 2 })).body;
    expect(p1.has_more).toBe(true);
    expect([...p1.data, ...p2.data].map((r: Row) => r.symbol)).toEqual(all.data.slice(0, 10).map((r: Row) => r.symbol));
    expect(all.has_more).toBe(false);
    const g = await startFixture(te);
    try {
      await clock(g.api, US_CORE);
      await g.api.call("POST", "/sandbox/market/tick", { body: { steps: 40 } });
      const other = new MarketDataSdkClient(g.sb.url, g.api.appKey, g.api.appSecret, "legacy", "HMAC-SHA256", g.api.token);
      const mine = new MarketDataSdkClient(f.sb.url, f.api.appKey, f.api.appSecret, "legacy", "HMAC-SHA256", f.api.token);
      for (const m of SYMBOL_METHODS) expect((await other.call(m, argsOf(m))).body, m).toEqual((await mine.call(m, argsOf(m))).body);
    } finally {
      await g.close();
    }
  }, 60_000);
});
