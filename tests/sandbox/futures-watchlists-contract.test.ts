import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBrokerError } from "@/server/broker/errors";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { engines, startFixture, type Fixture } from "./fixture";
import { FuturesWatchlistSdkClient, FW_PATHS, type WatchlistItem } from "./futures-watchlist-client";
import type { Res, Style } from "./trading-api-client";
import { ACCOUNTS, clock } from "./trading-helpers";

/**
 * Futures reference data and watchlists, against a started sandbox: a client built from the SDKs' request classes
 * (futures-watchlist-client.ts) calls every route on both path styles and both signature algorithms, with the broker's
 * key and with an account holder's Trading API key. The catalog holds together on any day (classes ⊇ products ⊇
 * contracts, months ascending, nothing expired), a watchlist goes through its life with the API's errors, two keys
 * never see each other's watchlists, and the desk's Broker client parses every real answer.
 */
type Algo = "HMAC-SHA1" | "HMAC-SHA256";
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- contract tests read response bodies loosely
type Row = any;
const STYLES: Style[] = ["legacy", "resource"];
const ALGOS: Algo[] = ["HMAC-SHA1", "HMAC-SHA256"];
const MONTH_LETTERS = "FGHJKMNQUVXZ";

const ok = (r: Res) => {
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const err = (r: Res) => [r.status, r.body?.error_code];
const symbolsOf = (r: Res) => ok(r).instruments.map((i: Row) => i.symbol);

describe.each(engines)("futures and watchlists contract ($name)", (te) => {
  let f: Fixture;
  const holders: { app_key: string; app_secret: string; token: string }[] = [];
  const broker = (style: Style = "legacy", algo: Algo = "HMAC-SHA256") =>
    new FuturesWatchlistSdkClient(f.sb.url, f.api.appKey, f.api.appSecret, f.api.token, style, algo);
  const holder = (n = 0, style: Style = "legacy", algo: Algo = "HMAC-SHA256") =>
    new FuturesWatchlistSdkClient(f.sb.url, holders[n].app_key, holders[n].app_secret, holders[n].token, style, algo);
  /** A Trading API credential of its own: a key with no watchlist yet. */
  const newHolder = async () => {
    const cred = (await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: ACCOUNTS.margin } })).body;
    const c = new FuturesWatchlistSdkClient(f.sb.url, cred.app_key, cred.app_secret, undefined);
    await c.http.login();
    holders.push({ ...cred, token: c.http.token! });
    return holders.length - 1;
  };
  const today = async () => (await f.api.call("GET", "/sandbox/market/clock")).body.now.slice(0, 10) as string;

  beforeAll(async () => {
    f = await startFixture(te, { marketDataRateLimit: 100_000 });
    await newHolder();
  }, 60_000);
  afterAll(async () => f?.close());

  describe.each(STYLES)("%s paths", (style) => {
    it.each(ALGOS)("every route answers the SDKs' calls with either key, signed %s", async (algo) => {
      for (const c of [broker(style, algo), holder(0, style, algo)]) {
        const classes = ok(await c.get_futures_product_class());
        expect(classes.map((k: Row) => k.product_class_name)).toEqual(["Equity Index", "Energy", "Metals", "Interest Rates", "Currencies"]);
        const products = ok(await c.get_futures_products("US_FUTURES", 2));
        expect(products.map((p: Row) => p.code)).toEqual(["CL", "NG"]);
        expect(products[0]).toMatchObject({ name: "Crude Oil", product_class_name: "Energy", exchange_code: "XNYM", multiplier: "1000" });
        const [es] = ok(await c.get_futures_instrument_by_code("ES", "US_FUTURES", "MONTHLY"));
        const found = ok(await c.get_futures_instrument({ symbols: [es.symbol, "NQmain", "NOPE1"] }));
        expect(found.map((i: Row) => i.symbol).sort()).toEqual([es.symbol, "NQmain"].sort());
        expect(Object.keys(es).sort()).toEqual(
          [
            "category",
            "code",
            "contract_id",
            "contract_month",
            "contract_type",
            "currency",
            "exchange_code",
            "first_trading_date",
            "instrument_id",
            "last_trading_date",
            "min_tick",
            "multiplier",
            "name",
            "product_class_id",
            "settlement",
            "settlement_date",
            "size",
            "status",
            "symbol",
            "unit",
          ].sort(),
        );

        const name = `List ${style} ${algo} ${c.http.appKey.slice(0, 6)}`;
        const { watchlist_id } = ok(await c.create_watchlist(name));
        expect(watchlist_id).toMatch(/^[0-9a-f]{32}$/);
        expect(ok(await c.get_watchlist()).find((w: Row) => w.watchlist_id === watchlist_id)).toEqual({
          watchlist_id,
          name,
          sort: expect.any(Number),
          create_time: expect.stringMatching(/Z$/),
          update_time: expect.stringMatching(/Z$/),
        });
        expect(ok(await c.add_instruments(watchlist_id, [{ symbol: "AAPL", category: "US_STOCK" }]))).toBe(true);
        expect(ok(await c.update_instruments(watchlist_id, [{ symbol: "AAPL", category: "US_STOCK", sort: 5 }]))).toBe(true);
        expect(ok(await c.get_instruments(watchlist_id))).toEqual({
          watchlist_id,
          instruments: [
            {
              instrument_id: expect.any(String),
              symbol: "AAPL",
              name: "Apple Inc.",
              exchange_code: "XNAS",
              category: "US_STOCK",
              sort: 5,
              added_time: expect.stringMatching(/Z$/),
            },
          ],
        });
        expect(ok(await c.update_watchlist(watchlist_id, `${name} 2`))).toBe(true);
        expect(ok(await c.remove_instruments(watchlist_id, [{ symbol: "AAPL", category: "US_STOCK" }]))).toBe(true);
        expect(ok(await c.delete_watchlist(watchlist_id))).toBe(true);
      }
    });

    it("the catalog holds together: classes ⊇ products ⊇ contracts, months ascending, nothing expired", async () => {
      const c = broker(style);
      const day = await today();
      const classes = ok(await c.get_futures_product_class());
      const products = ok(await c.get_futures_products());
      const contracts = ok(await c.get_futures_instrument({}));
      expect(products.map((p: Row) => p.code)).toEqual(
        expect.arrayContaining(["ES", "NQ", "YM", "RTY", "CL", "NG", "GC", "SI", "HG", "ZN", "ZB", "ZF", "6E", "6J", "6B"]),
      );
      for (const p of products) {
        const k = classes.find((x: Row) => x.product_class_id === p.product_class_id);
        expect(k, p.code).toBeDefined();
        expect(k.product_codes).toContain(p.code);
        expect([p.currency, Number(p.multiplier) > 0, Number(p.min_tick) > 0, p.exchange_code], p.code).toEqual([
          "USD",
          true,
          true,
          expect.stringMatching(/^X[A-Z]{3}$/),
        ]);
        const own = contracts.filter((x: Row) => x.code === p.code);
        const monthly = own.filter((x: Row) => x.contract_type === "MONTHLY");
        const main = own.filter((x: Row) => x.contract_type === "MAIN");
        expect(monthly.length, p.code).toBeGreaterThan(1);
        const months = monthly.map((x: Row) => x.contract_month);
        expect(months, p.code).toEqual([...months].sort());
        expect(new Set(months).size).toBe(months.length);
        for (const x of monthly) {
          const [y, m] = [Number(x.contract_month.slice(0, 4)), Number(x.contract_month.slice(4))];
          expect(x.symbol).toBe(`${p.code}${MONTH_LETTERS[m - 1]}${y % 10}`);
          expect(x.last_trading_date >= day, x.symbol).toBe(true);
          expect(x.first_trading_date <= day && x.last_trading_date <= x.settlement_date, x.symbol).toBe(true);
          if (x.first_notice_date) expect(x.settlement).toBe("PHYSICAL");
          expect([x.min_tick, x.multiplier, x.exchange_code]).toEqual([p.min_tick, p.multiplier, p.exchange_code]);
        }
        // one main contract, naming a listed monthly one whose terms it carries
        expect(main.map((x: Row) => x.symbol)).toEqual([`${p.code}main`]);
        const tracked = monthly.find((x: Row) => x.instrument_id === main[0].contract_id);
        expect(tracked?.contract_month).toBe(main[0].contract_month);
        expect(ok(await c.get_futures_instrument_by_code(p.code, "US_FUTURES", "MAIN"))).toEqual(main);
        expect(ok(await c.get_futures_instrument_by_code(p.code))).toEqual(own);
      }
      expect(contracts.every((x: Row) => products.some((p: Row) => p.code === x.code))).toBe(true);
      expect(ok(await c.get_futures_instrument({ code: "CL" })).map((x: Row) => x.code)).toEqual(
        contracts.filter((x: Row) => x.code === "CL").map(() => "CL"),
      );
      const tradable = ok(await c.get_futures_instrument({ status: "OC" }));
      expect(tradable.length).toBeGreaterThan(0);
      expect(tradable.every((x: Row) => x.status === "OC")).toBe(true);
    });

    it("refuses what the catalog does not have", async () => {
      const c = holder(0, style);
      expect(err(await c.get_futures_instrument_by_code("ZZ"))).toEqual([417, "PRODUCT_NOT_FOUND"]);
      expect(err(await c.get_futures_product_class("HK_FUTURES"))).toEqual([417, "UNSUPPORTED_CATEGORY"]);
      expect(err(await c.get_futures_instrument({ category: "US_STOCK" }))).toEqual([417, "UNSUPPORTED_CATEGORY"]);
      expect(err(await c.get_futures_instrument_by_code("ES", "US_FUTURES", "WEEKLY"))).toEqual([417, "ILLEGAL_PARAMETER"]);
      expect(err(await c.call("get_futures_products", { category: "US_FUTURES", product_class_id: "energy" }))).toEqual([
        417,
        "ILLEGAL_PARAMETER",
      ]);
      expect(ok(await c.get_futures_products("US_FUTURES", 99))).toEqual([]);
      expect(ok(await c.get_futures_instrument({ symbols: "NOPE1" }))).toEqual([]);
    });
  });

  it("on any day of a year the catalog lists every product, nothing expired, and the main contract rolls forward", async () => {
    const c = broker("resource");
    const mains: string[] = [];
    try {
      for (let d = 0; d < 400; d += 9) {
        const at = new Date(Date.UTC(2026, 0, 2) + d * 86_400_000).toISOString().slice(0, 10);
        expect((await f.api.call("POST", "/sandbox/market/clock", { body: { now: `${at}T15:00:00Z`, match: false } })).status).toBe(200);
        const contracts = ok(await c.get_futures_instrument({}));
        for (const code of ["ES", "CL", "NG", "GC", "SI", "ZN", "ZF", "6J"]) {
          const monthly = contracts.filter((x: Row) => x.code === code && x.contract_type === "MONTHLY");
          expect(monthly.length, `${code} on ${at}`).toBeGreaterThan(1);
          expect(
            monthly.every((x: Row) => x.last_trading_date >= at),
            `${code} on ${at}`,
          ).toBe(true);
          const months = monthly.map((x: Row) => x.contract_month);
          expect(months).toEqual([...months].sort());
        }
        mains.push(contracts.find((x: Row) => x.symbol === "ESmain").contract_month);
      }
    } finally {
      await clock(f.api, null);
    }
    expect(mains).toEqual([...mains].sort());
    expect(new Set(mains).size).toBeGreaterThanOrEqual(4);
  }, 60_000);

  describe("a watchlist's life", () => {
    const items = (...s: string[]): WatchlistItem[] =>
      s.map((symbol) => ({ symbol, category: /^\d/.test(symbol) ? "HK_STOCK" : "US_STOCK" }));

    it.each(STYLES)("create, rename, add, reorder, remove, delete, with the API's errors (%s)", async (style) => {
      const c = broker(style);
      const tech = ok(await c.create_watchlist(`Tech ${style}`)).watchlist_id;
      const energy = ok(await c.create_watchlist(`Energy ${style}`)).watchlist_id;
      const mine = ok(await c.get_watchlist()).map((w: Row) => w.watchlist_id);
      expect(mine.indexOf(energy)).toBeLessThan(mine.indexOf(tech)); // the newest on top, highest sort first
      const sorts = ok(await c.get_watchlist()).map((w: Row) => w.sort);
      expect(sorts).toEqual([...sorts].sort((a, b) => b - a));

      expect(err(await c.create_watchlist(`tech ${style.toUpperCase()}`))).toEqual([417, "DUPLICATE_WATCHLIST_NAME"]);
      expect(err(await c.create_watchlist("   "))).toEqual([417, "ILLEGAL_PARAMETER"]);
      expect(err(await c.create_watchlist(42))).toEqual([417, "ILLEGAL_PARAMETER"]);
      expect(ok(await c.update_watchlist(tech, `Big Tech ${style}`))).toBe(true);
      expect(ok(await c.get_watchlist()).find((w: Row) => w.watchlist_id === tech).name).toBe(`Big Tech ${style}`);
      expect(err(await c.update_watchlist(tech, `ENERGY ${style}`))).toEqual([417, "DUPLICATE_WATCHLIST_NAME"]);
      expect(err(await c.update_watchlist(tech))).toEqual([417, "ILLEGAL_PARAMETER"]);
      expect(ok(await c.update_watchlist(tech, undefined, 1_000))).toBe(true);
      expect(ok(await c.get_watchlist())[0].watchlist_id).toBe(tech);

      // added on top in the order given; names and exchanges from the instrument master
      expect(ok(await c.add_instruments(tech, items("AAPL", "MSFT", "00700")))).toBe(true);
      expect(symbolsOf(await c.get_instruments(tech))).toEqual(["AAPL", "MSFT", "00700"]);
      expect(ok(await c.add_instruments(tech, items("NVDA")))).toBe(true);
      expect(symbolsOf(await c.get_instruments(tech))).toEqual(["NVDA", "AAPL", "MSFT", "00700"]);
      // all or nothing: one unknown symbol, one of another category, one already there
      expect(err(await c.add_instruments(tech, items("AMD", "NOPE")))).toEqual([417, "INSTRUMENT_NOT_FOUND"]);
      expect(err(await c.add_instruments(tech, [{ symbol: "ESZ6", category: "US_FUTURES" }]))).toEqual([417, "UNSUPPORTED_CATEGORY"]);
      expect(err(await c.add_instruments(tech, items("AMD", "AAPL")))).toEqual([417, "INSTRUMENT_ALREADY_IN_WATCHLIST"]);
      expect(err(await c.add_instruments(tech, items("AMD", "AMD")))).toEqual([417, "ILLEGAL_PARAMETER"]);
      expect(err(await c.add_instruments(tech, []))).toEqual([417, "ILLEGAL_PARAMETER"]);
      expect(symbolsOf(await c.get_instruments(tech))).toEqual(["NVDA", "AAPL", "MSFT", "00700"]);

      // reorder: the sorts given, highest first; an instrument not in the list, or without a sort, is refused
      const order = ["00700", "MSFT", "AAPL", "NVDA"];
      const reordered = items(...order).map((i, n) => ({ ...i, sort: 100 - n }));
      expect(ok(await c.update_instruments(tech, reordered))).toBe(true);
      expect(symbolsOf(await c.get_instruments(tech))).toEqual(order);
      expect(err(await c.update_instruments(tech, [{ symbol: "AMD", category: "US_STOCK", sort: 1 }]))).toEqual([
        417,
        "INSTRUMENT_NOT_IN_WATCHLIST",
      ]);
      expect(err(await c.update_instruments(tech, items("AAPL")))).toEqual([417, "ILLEGAL_PARAMETER"]);

      expect(ok(await c.remove_instruments(tech, items("MSFT")))).toBe(true);
      expect(symbolsOf(await c.get_instruments(tech))).toEqual(["00700", "AAPL", "NVDA"]);
      expect(err(await c.remove_instruments(tech, items("NVDA", "MSFT")))).toEqual([417, "INSTRUMENT_NOT_IN_WATCHLIST"]);
      expect(symbolsOf(await c.get_instruments(tech))).toEqual(["00700", "AAPL", "NVDA"]);

      expect(ok(await c.delete_watchlist(tech))).toBe(true);
      expect(ok(await c.get_watchlist()).some((w: Row) => w.watchlist_id === tech)).toBe(false);
      for (const r of [
        await c.get_instruments(tech),
        await c.delete_watchlist(tech),
        await c.update_watchlist(tech, "x"),
        await c.add_instruments(tech, items("AAPL")),
      ])
        expect(err(r)).toEqual([417, "WATCHLIST_NOT_FOUND"]);
      expect(ok(await c.delete_watchlist(energy))).toBe(true);
      const { rows } = await f.sb.engine.query("SELECT 1 FROM sandbox.watchlist_instruments WHERE watchlist_id = $1", [tech]);
      expect(rows).toEqual([]);
    });

    it("two keys never see each other's watchlists; each may use the same name", async () => {
      const a = holder(await newHolder());
      const b = holder(await newHolder(), "resource", "HMAC-SHA1");
      const mine = ok(await a.create_watchlist("Shared name")).watchlist_id;
      ok(await a.add_instruments(mine, items("AAPL")));
      const theirs = ok(await b.create_watchlist("Shared name")).watchlist_id;
      expect(ok(await a.get_watchlist()).map((w: Row) => w.watchlist_id)).toEqual([mine]);
      expect(ok(await b.get_watchlist()).map((w: Row) => w.watchlist_id)).toEqual([theirs]);
      for (const r of [
        await b.get_instruments(mine),
        await b.update_watchlist(mine, "Taken over"),
        await b.add_instruments(mine, items("MSFT")),
        await b.remove_instruments(mine, items("AAPL")),
        await b.update_instruments(mine, [{ symbol: "AAPL", category: "US_STOCK", sort: 1 }]),
        await b.delete_watchlist(mine),
      ])
        expect(err(r)).toEqual([417, "WATCHLIST_NOT_FOUND"]);
      expect(ok(await a.get_instruments(mine))).toMatchObject({ watchlist_id: mine, instruments: [{ symbol: "AAPL" }] });
      expect(ok(await a.get_watchlist())[0].name).toBe("Shared name");
    });

    it("at most 20 watchlists and 1,000 instruments in all per key", async () => {
      const n = await newHolder();
      const c = holder(n);
      const ids: string[] = [];
      for (let i = 0; i < 20; i += 1) ids.push(ok(await c.create_watchlist(`L${i}`)).watchlist_id);
      expect(err(await c.create_watchlist("L20"))).toEqual([417, "WATCHLIST_LIMIT_EXCEEDED"]);
      // 990 instruments in the other lists (rows written directly: the seed has 50 instruments), then 10 more fit, 11 do not
      await f.sb.engine.query(
        `INSERT INTO sandbox.watchlist_instruments (watchlist_id, app_key, market, symbol, category, instrument_id, sort, added_at)
         SELECT $1, $2, 'US', 'FILL' || g, 'US_STOCK', 'fill' || g, g, now() FROM generate_series(1, 990) AS g`,
        [ids[1], holders[n].app_key],
      );
      const eleven = items("AAPL", "MSFT", "NVDA", "AMZN", "GOOGL", "META", "TSLA", "JPM", "V", "KO", "PEP");
      expect(err(await c.add_instruments(ids[0], eleven))).toEqual([417, "WATCHLIST_INSTRUMENT_LIMIT_EXCEEDED"]);
      expect(symbolsOf(await c.get_instruments(ids[0]))).toEqual([]);
      expect(ok(await c.add_instruments(ids[0], eleven.slice(0, 10)))).toBe(true);
      expect(ok(await c.delete_watchlist(ids[19]))).toBe(true);
      expect(ok(await c.create_watchlist("L20"))).toHaveProperty("watchlist_id");
    });
  });

  it("counts against the market-data rate limit of the key", async () => {
    const n = await newHolder();
    const c = holder(n);
    const limit = f.sb.sandbox.config.marketDataRateLimit;
    f.sb.sandbox.config.marketDataRateLimit = 3;
    try {
      expect((await c.get_watchlist()).status).toBe(200);
      expect((await c.get_futures_products()).status).toBe(200);
      expect((await c.create_watchlist("one")).status).toBe(200);
      expect(err(await c.get_futures_product_class())).toEqual([429, "TOO_MANY_REQUESTS"]);
    } finally {
      f.sb.sandbox.config.marketDataRateLimit = limit;
    }
  });

  describe.each(STYLES)("the desk's Broker client (%s paths)", (pathStyle) => {
    it("parses every answer and turns refusals into BrokerErrors", async () => {
      const desk = sandboxBroker(f.sb.url, { pathStyle });
      const classes = await desk.listFuturesProductClasses();
      expect(classes.map((k) => k.product_class_id)).toEqual(["1", "2", "3", "4", "5"]);
      const metals = await desk.listFuturesProducts({ product_class_id: 3 });
      expect(metals.map((p) => [p.code, p.min_tick, p.unit])).toEqual([
        ["GC", "0.1", "troy ounces"],
        ["SI", "0.005", "troy ounces"],
        ["HG", "0.0005", "pounds"],
      ]);
      const [main] = await desk.listFuturesInstrumentsByCode({ code: "GC", contract_type: "MAIN" });
      expect(main).toMatchObject({ symbol: "GCmain", contract_type: "MAIN", exchange_code: "XCEC", size: "100" });
      const bySymbol = await desk.listFuturesInstruments({ symbols: ["GCmain", "6Emain"] });
      expect(bySymbol.map((i) => i.symbol)).toEqual(["GCmain", "6Emain"]);
      expect((await desk.listFuturesInstruments({ code: "ZN" })).every((i) => i.code === "ZN")).toBe(true);

      const { watchlist_id } = await desk.createWatchlist({ name: `Desk ${pathStyle}` });
      expect(await desk.updateWatchlist({ watchlist_id, name: `Desk list ${pathStyle}` })).toEqual({ success: true });
      expect((await desk.listWatchlists()).find((w) => w.watchlist_id === watchlist_id)).toMatchObject({ name: `Desk list ${pathStyle}` });
      await desk.addWatchlistInstruments({
        watchlist_id,
        instruments: [
          { symbol: "SPY", category: "US_ETF" },
          { symbol: "00700", category: "HK_STOCK" },
        ],
      });
      await desk.updateWatchlistInstruments({
        watchlist_id,
        instruments: [
          { symbol: "SPY", category: "US_ETF", sort: 1 },
          { symbol: "00700", category: "HK_STOCK", sort: 2 },
        ],
      });
      const listed = await desk.listWatchlistInstruments({ watchlist_id });
      expect(listed.instruments.map((i) => [i.symbol, i.category, i.sort])).toEqual([
        ["00700", "HK_STOCK", 2],
        ["SPY", "US_ETF", 1],
      ]);
      await desk.removeWatchlistInstruments({ watchlist_id, instruments: [{ symbol: "SPY", category: "US_ETF" }] });
      expect(await desk.deleteWatchlist({ watchlist_id })).toEqual({ success: true });
      const gone = await desk.listWatchlistInstruments({ watchlist_id }).catch((e: unknown) => e);
      expect(isBrokerError(gone) && [gone.status, gone.errorCode]).toEqual([417, "WATCHLIST_NOT_FOUND"]);
      const bad = await desk.createWatchlist({ name: "" }).catch((e: unknown) => e);
      expect(isBrokerError(bad) && bad.errorCode).toBe("INVALID_REQUEST");
    });

    it("a failed write is not sent again; a failed read is", async () => {
      const desk = sandboxBroker(f.sb.url, { pathStyle, maxRetries: 2, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
      const create = FW_PATHS.create_watchlist[pathStyle === "legacy" ? 1 : 2];
      const list = FW_PATHS.get_watchlist[pathStyle === "legacy" ? 1 : 2];
      await f.api.call("POST", "/sandbox/calls/reset", { body: {} });
      for (const path of [create, list])
        await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: path, type: "ERROR", status: 503, count: 1 } });
      const failed = await desk.createWatchlist({ name: `Once ${pathStyle}` }).catch((e: unknown) => e);
      expect(isBrokerError(failed) && failed.status).toBe(503);
      expect(Array.isArray(await desk.listWatchlists())).toBe(true);
      const calls = (await f.api.call("GET", "/sandbox/calls")).body.data;
      expect([calls[`POST ${create}`], calls[`GET ${list}`]]).toEqual([1, 2]);
      expect((await desk.listWatchlists()).some((w) => w.name === `Once ${pathStyle}`)).toBe(false);
    });
  });
});
