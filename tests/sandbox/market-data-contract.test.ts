import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataSdkClient } from "./market-data-client";
import { items, type Res } from "./trading-api-client";
import { startFixture, type Fixture } from "./fixture";
import { ACCOUNTS, clock, engines, order, place, setPrice, startTrading, stock, US_CORE } from "./trading-helpers";

/**
 * Market Data API contract: a client built from the SDKs' data request classes (market-data-client.ts) calls every
 * stock and option route on both path styles, both signature algorithms, with the broker's key and with an account
 * holder's Trading API key; and the market holds together: a snapshot quotes what an order fills at, bars and
 * footprint aggregate the same ticks, and the last M1 bar closes at the snapshot's price.
 */
let f: Fixture;
let holder: { app_key: string; app_secret: string };
let holderToken: string | undefined;
let calls: string[] = [];
let puts: string[] = [];

const client = (
  who: "broker" | "holder",
  style: "legacy" | "resource" = "legacy",
  algorithm: "HMAC-SHA1" | "HMAC-SHA256" = "HMAC-SHA256",
) =>
  who === "broker"
    ? new DataSdkClient(f.sb.url, f.api.appKey, f.api.appSecret, f.api.token, style, algorithm)
    : new DataSdkClient(f.sb.url, holder.app_key, holder.app_secret, holderToken, style, algorithm);
const ok = (r: Res) => {
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
const err = (r: Res) => ({ status: r.status, code: r.body?.error_code });
const num = Number;

beforeAll(async () => {
  f = await startTrading();
  const r = await f.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: ACCOUNTS.margin } });
  holder = r.body;
  const c = client("holder");
  await c.http.login();
  holderToken = c.http.token;
  const { rows } = await f.sb.engine.query<{ symbol: string; option_type: string }>(
    "SELECT symbol, option_type FROM sandbox.option_contracts WHERE root_symbol = 'AAPL' ORDER BY expiration_date, strike_price",
  );
  calls = rows.filter((o) => o.option_type === "CALL").map((o) => o.symbol);
  puts = rows.filter((o) => o.option_type === "PUT").map((o) => o.symbol);
}, 60_000);
afterAll(async () => f?.close());

describe("every route answers the SDKs' calls", () => {
  const matrix = (["broker", "holder"] as const).flatMap((who) =>
    (["HMAC-SHA1", "HMAC-SHA256"] as const).flatMap((alg) => (["legacy", "resource"] as const).map((style) => [who, alg, style] as const)),
  );
  it.each(matrix)("%s key, %s, %s paths", async (who, alg, style) => {
    const c = client(who, style, alg);
    const wrapped = style === "resource";
    const snap = items(await c.get_snapshot(["AAPL", "MSFT"], "US_STOCK"));
    expect(snap).toHaveLength(2);
    expect(snap[0]).toMatchObject({ symbol: "AAPL", price: expect.any(String), bid: expect.any(String), ask: expect.any(String) });
    const quotes = ok(await c.get_quotes("AAPL", "US_STOCK", 3));
    expect(quotes).toMatchObject({ symbol: "AAPL", asks: expect.any(Array), bids: expect.any(Array) });
    expect(quotes.asks).toHaveLength(3);
    const tick = ok(await c.get_tick("AAPL", "US_STOCK", 5));
    expect(tick.result).toHaveLength(5);
    expect(tick.result[0]).toEqual({
      time: expect.any(String),
      price: expect.any(String),
      volume: expect.any(String),
      side: expect.stringMatching(/^(BUY|SELL)$/),
      trading_session: expect.any(String),
    });
    const bars = items(await c.get_history_bar("AAPL", "US_STOCK", "M1", 3));
    expect(bars).toHaveLength(3);
    expect(Object.keys(bars[0]).sort()).toEqual(["close", "high", "low", "open", "time", "trading_session", "volume"]);
    const batch = ok(await c.get_batch_history_bar(["AAPL", "SPY"], "US_STOCK", "M5", 2));
    const batchItems = wrapped ? batch.data : batch.result;
    expect(batchItems.map((b: { symbol: string }) => b.symbol)).toEqual(["AAPL", "SPY"]);
    expect(batchItems[0].result).toHaveLength(2);
    const fp = items(await c.get_footprint("AAPL", "US_STOCK", "M1", 2));
    expect(fp[0].result[0]).toMatchObject({ total: expect.any(String), buy_detail: expect.any(Object), sell_detail: expect.any(Object) });
    expect(ok(await c.get_noii_snapshot("AAPL", "US_STOCK", "PRE_OPEN"))).toMatchObject({
      symbol: "AAPL",
      imbalance_action_type: "PRE_OPEN",
    });
    expect(items(await c.get_noii_bars("AAPL", "US_STOCK", "PRE_OPEN")).length).toBeGreaterThan(0);
    const opt = items(await c.get_option_snapshot([calls[0], puts[0]]));
    expect(opt.map((o: { symbol: string }) => o.symbol)).toEqual([calls[0], puts[0]]);
    expect(items(await c.get_option_history_bars(calls[0], "US_OPTION", "M5", 2))[0].result).toHaveLength(2);
    expect(ok(await c.get_option_tick(calls[0], "US_OPTION", 4)).result).toHaveLength(4);
  });

  it("answers the older SDK paths (x-version v2) too", async () => {
    const c = client("broker").http;
    const v2 = { "x-version": "v2" };
    expect(items(await c.request("GET", "/market-data/snapshot", { symbols: "AAPL", category: "US_STOCK" }, undefined, v2))).toHaveLength(
      1,
    );
    expect(
      ok(await c.request("GET", "/market-data/tick", { symbol: "AAPL", category: "US_STOCK", count: 2 }, undefined, v2)).result,
    ).toHaveLength(2);
    const batch = await c.request(
      "POST",
      "/market-data/batch-bars",
      {},
      { symbols: ["AAPL"], category: "US_STOCK", timespan: "D", count: 2 },
      v2,
    );
    expect(ok(batch).result[0].result).toHaveLength(2);
  });

  it("answers the resource-style snapshot and bars as POSTs with a JSON body (category_symbols groups too)", async () => {
    const c = client("holder", "resource").http;
    const flat = await c.request("POST", "/market-data/stocks/snapshots/list", {}, { symbols: ["AAPL"], category: "US_STOCK" });
    expect(ok(flat).data.map((s: { symbol: string }) => s.symbol)).toEqual(["AAPL"]);
    const groups = await c.request(
      "POST",
      "/market-data/stocks/snapshots/list",
      {},
      {
        category_symbols: [
          { category: "US_STOCK", symbols: ["AAPL", "MSFT"] },
          { category: "HK_STOCK", symbols: ["00700"] },
        ],
        extend_hour_required: "true",
      },
    );
    expect(ok(groups).data.map((s: { symbol: string; market: string }) => `${s.market}:${s.symbol}`)).toEqual([
      "US:AAPL",
      "US:MSFT",
      "HK:00700",
    ]);
    expect(ok(groups).data[0].extend_hour_last_price).toEqual(expect.any(String));
    const tooMany = await c.request(
      "POST",
      "/market-data/stocks/snapshots/list",
      {},
      {
        category_symbols: [
          { category: "US_STOCK", symbols: Array.from({ length: 60 }, () => "AAPL") },
          { category: "US_STOCK", symbols: Array.from({ length: 41 }, () => "MSFT") },
        ],
      },
    );
    expect(err(tooMany)).toEqual({ status: 417, code: "TOO_MANY_SYMBOLS" });
    expect(err(await c.request("POST", "/market-data/stocks/snapshots/list", {}, { category_symbols: [null] }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
    const bars = await c.request(
      "POST",
      "/market-data/stocks/bars/list",
      {},
      { symbol: "AAPL", category: "US_STOCK", timespan: "M1", count: 2 },
    );
    expect(ok(bars).data).toHaveLength(2);
  });

  it("serves every timespan of the SDK's enum", async () => {
    const c = client("broker");
    for (const ts of ["S5", "S15", "M1", "M5", "M15", "M30", "M60", "M120", "M240", "D", "W", "M", "Y"]) {
      const bars = items(await c.get_history_bar("SPY", "US_STOCK", ts, 2));
      expect(bars.length, ts).toBe(2);
      expect(Date.parse(bars[0].time)).toBeGreaterThan(Date.parse(bars[1].time));
    }
  }, 60_000);
});

describe("one market", () => {
  it("a snapshot quotes the price a marketable order fills at right after (buy at the ask, sell at the bid)", async () => {
    const c = client("broker");
    await setPrice(f.api, "MSFT", "412.37");
    const [s] = items(await c.get_snapshot("MSFT", "US_STOCK"));
    expect(s.price).toBe("412.37");
    const buy = stock({ symbol: "MSFT", order_type: "MARKET", quantity: "3" });
    delete buy.limit_price;
    expect((await place(f.api, ACCOUNTS.margin, [buy])).status).toBe(200);
    expect((await order(f.api, ACCOUNTS.margin, buy.client_order_id as string)).filled_price).toBe(s.ask);
    const [s2] = items(await c.get_snapshot("MSFT", "US_STOCK"));
    const sell = stock({ symbol: "MSFT", side: "SELL", order_type: "MARKET", quantity: "3" });
    delete sell.limit_price;
    expect((await place(f.api, ACCOUNTS.margin, [sell])).status).toBe(200);
    expect((await order(f.api, ACCOUNTS.margin, sell.client_order_id as string)).filled_price).toBe(s2.bid);
    // the depth's first level is the same quote, sized at what one matching pass fills
    const q = ok(await c.get_quotes("MSFT", "US_STOCK", 5));
    expect([q.asks[0].price, q.bids[0].price, q.asks[0].size]).toEqual([s2.ask, s2.bid, s2.ask_size]);
    expect(q.asks.map((l: { price: string }) => num(l.price))).toEqual(
      [...q.asks.map((l: { price: string }) => num(l.price))].sort((a, b) => a - b),
    );
    expect(num(q.bids[1].price)).toBeLessThan(num(q.bids[0].price));
  });

  it("the last M1 bar closes at the snapshot's price, before and after the walk moves", async () => {
    const c = client("holder");
    for (const step of [0, 7]) {
      if (step) await f.api.call("POST", "/sandbox/market/tick", { body: { steps: step, advance_seconds: 30 } });
      const [s] = items(await c.get_snapshot("AAPL", "US_STOCK"));
      const [m1] = items(await c.get_history_bar("AAPL", "US_STOCK", "M1", 1));
      expect(m1.close).toBe(s.price);
      const [tick] = ok(await c.get_tick("AAPL", "US_STOCK", 1)).result;
      expect(tick.price).toBe(s.price);
    }
  });

  it("bars, footprint, ticks and the snapshot's volume are the same trades", async () => {
    const c = client("broker");
    const bars = items(await c.get_history_bar("AAPL", "US_STOCK", "M5", 30));
    const [fp] = items(await c.get_footprint("AAPL", "US_STOCK", "M5", 30));
    expect(fp.result.map((b: { time: string }) => b.time)).toEqual(bars.map((b: { time: string }) => b.time));
    const sum = (o: Record<string, string>) => Object.values(o).reduce((a, v) => a + num(v), 0);
    fp.result.forEach((b: Record<string, never>, i: number) => {
      expect(num(b.total)).toBe(num(bars[i].volume));
      expect(num(b.buy_total) + num(b.sell_total)).toBe(num(b.total));
      expect(sum(b.buy_detail) + sum(b.sell_detail)).toBe(num(b.total));
      expect(num(b.delta)).toBe(num(b.buy_total) - num(b.sell_total));
    });
    // five M1 bars make the M5 bar
    const m1 = items(await c.get_history_bar("AAPL", "US_STOCK", "M1", 200));
    const inBar = m1.filter(
      (b: { time: string }) => Date.parse(b.time) >= Date.parse(bars[1].time) && Date.parse(b.time) < Date.parse(bars[0].time),
    );
    expect(inBar.reduce((a: number, b: { volume: string }) => a + num(b.volume), 0)).toBe(num(bars[1].volume));
    expect(inBar[inBar.length - 1].open).toBe(bars[1].open);
    // the ticks of the newest minute add up to its M1 bar
    const ticks = ok(await c.get_tick("AAPL", "US_STOCK", 1000)).result;
    const minute = ticks.filter((t: { time: string }) => Date.parse(t.time) >= Date.parse(m1[0].time));
    expect(minute.reduce((a: number, t: { volume: string }) => a + num(t.volume), 0)).toBe(num(m1[0].volume));
    // today's regular-session bar is the snapshot's open, high, low and volume
    const [today] = items(await c.get_history_bar("AAPL", "US_STOCK", "D", 1, ["RTH"]));
    const [s] = items(await c.get_snapshot("AAPL", "US_STOCK"));
    expect([s.open, s.high, s.low, s.volume]).toEqual([today.open, today.high, today.low, today.volume]);
    expect(num(s.deal_amount)).toBeGreaterThan(num(s.volume) * num(s.low) - 1);
  });

  it("adds the extended-hours and overnight fields when asked", async () => {
    const c = client("broker");
    const [plain] = items(await c.get_snapshot("AAPL", "US_STOCK"));
    expect(plain.extend_hour_last_price).toBeUndefined();
    const [s] = items(await c.get_snapshot("AAPL", "US_STOCK", true, true));
    expect(s).toMatchObject({
      extend_hour_last_price: expect.any(String),
      extend_hour_volume: expect.any(String),
      ovn_price: expect.any(String),
      ovn_volume: expect.any(String),
      ovn_bid: s.bid,
    });
    const [pre] = items(await c.get_history_bar("AAPL", "US_STOCK", "D", 1, ["PRE", "ATH"]));
    expect(s.extend_hour_volume).toBe(pre.volume);
  });

  it("option snapshots carry Black-Scholes greeks within sane ranges", async () => {
    const c = client("holder");
    const opts = items(await c.get_option_snapshot([...calls.slice(0, 10), ...puts.slice(0, 10)]));
    expect(opts).toHaveLength(20);
    for (const o of opts) {
      const call = calls.includes(o.symbol);
      const delta = num(o.delta);
      if (call) expect(delta).toBeGreaterThanOrEqual(0);
      else expect(delta).toBeLessThanOrEqual(0);
      expect(Math.abs(delta)).toBeLessThanOrEqual(1);
      expect(num(o.gamma)).toBeGreaterThanOrEqual(0);
      expect(num(o.vega)).toBeGreaterThanOrEqual(0);
      expect(num(o.imp_vol)).toBeGreaterThan(0);
      expect(num(o.imp_vol)).toBeLessThanOrEqual(5);
      expect(o).toMatchObject({ underlying_symbol: "AAPL", strike_price: expect.any(String), price: expect.any(String) });
    }
    // an at-the-money call has a delta near one half
    const atm = opts
      .filter((o: { symbol: string }) => calls.includes(o.symbol))
      .sort(
        (a: Record<string, string>, b: Record<string, string>) =>
          Math.abs(num(a.strike_price) - num(a.underlying_price)) - Math.abs(num(b.strike_price) - num(b.underlying_price)),
      )[0];
    expect(num(atm.delta)).toBeGreaterThan(0.25);
    expect(num(atm.delta)).toBeLessThan(0.8);
  });

  it("NOII: the opening window's last update after it, live updates inside the closing window", async () => {
    const c = client("broker");
    // US_CORE is 10:00 New York: today's opening auction (09:28–09:30) is over, its last update is answered.
    const open = ok(await c.get_noii_snapshot("AAPL", "US_STOCK", "PRE_OPEN"));
    expect(open).toMatchObject({ time: "2026-11-17T14:29:55.000Z", auction_time: "2026-11-17T14:30:00.000Z", in_auction_window: false });
    expect(items(await c.get_noii_bars("AAPL", "US_STOCK", "PRE_OPEN"))).toHaveLength(24);
    // the closing auction of the day before (Monday)
    expect(ok(await c.get_noii_snapshot("AAPL", "US_STOCK", "PRE_CLOSE")).auction_time).toBe("2026-11-16T21:00:00.000Z");
    await clock(f.api, "2026-11-17T20:52:03Z");
    const close = ok(await c.get_noii_snapshot("AAPL", "US_STOCK", "PRE_CLOSE"));
    expect(close).toMatchObject({
      time: "2026-11-17T20:52:00.000Z",
      in_auction_window: true,
      imbalance_side: expect.stringMatching(/BUY|SELL|NONE/),
    });
    expect(num(close.paired_shares)).toBeGreaterThan(0);
    expect(items(await c.get_noii_bars("AAPL", "US_STOCK", "PRE_CLOSE"))).toHaveLength(25);
    expect(err(await c.get_noii_snapshot("00700", "HK_STOCK", "PRE_OPEN"))).toEqual({ status: 417, code: "UNSUPPORTED_CATEGORY" });
    expect(err(await c.get_noii_snapshot("AAPL", "US_STOCK", "MIDDAY"))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    await clock(f.api, US_CORE);
  });
});

describe("limits and errors", () => {
  it("refuses 21 option symbols, counts above the documented maximum, unknown symbols and wrong categories", async () => {
    const c = client("broker");
    const many = [...calls, ...puts].slice(0, 21);
    expect(many).toHaveLength(21);
    expect(err(await c.get_option_snapshot(many))).toEqual({ status: 417, code: "TOO_MANY_SYMBOLS" });
    expect(err(await c.get_option_history_bars(many, "US_OPTION", "M1", 1))).toEqual({ status: 417, code: "TOO_MANY_SYMBOLS" });
    expect(ok(await c.get_option_history_bars(calls[0], "US_OPTION", "M1", 1200))[0].result.length).toBe(1200);
    expect(err(await c.get_option_history_bars(calls[0], "US_OPTION", "M1", 1201))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(err(await c.get_option_tick(calls[0], "US_OPTION", 1201))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(err(await c.get_history_bar("AAPL", "US_STOCK", "M1", 1201))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(err(await c.get_batch_history_bar(["AAPL"], "US_STOCK", "M1", 1201))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(err(await c.get_footprint("AAPL", "US_STOCK", "M1", 1201))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(err(await c.get_tick("AAPL", "US_STOCK", 1001))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(err(await c.get_quotes("AAPL", "US_STOCK", 51))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(err(await c.get_history_bar("AAPL", "US_STOCK", "H1", 1))).toEqual({ status: 417, code: "ILLEGAL_PARAMETER" });
    expect(err(await c.get_snapshot("NOPE", "US_STOCK"))).toEqual({ status: 417, code: "INSTRUMENT_NOT_FOUND" });
    expect(err(await c.get_option_snapshot("AAPL", "US_OPTION"))).toEqual({ status: 417, code: "INSTRUMENT_NOT_FOUND" });
    expect(err(await c.get_option_snapshot(calls[0], "US_STOCK"))).toEqual({ status: 417, code: "UNSUPPORTED_CATEGORY" });
    expect(err(await c.get_tick("AAPL", "CRYPTO", 1))).toEqual({ status: 417, code: "UNSUPPORTED_CATEGORY" });
  });

  it("the same seed gives the same history", async () => {
    const other = await startTrading();
    try {
      const c2 = new DataSdkClient(other.sb.url, other.api.appKey, other.api.appSecret, other.api.token);
      const a = items(await client("broker").get_history_bar("QQQ", "US_STOCK", "D", 30));
      const b = items(await c2.get_history_bar("QQQ", "US_STOCK", "D", 30));
      expect(b.slice(1)).toEqual(a.slice(1));
      const fa = items(await client("broker").get_footprint("QQQ", "US_STOCK", "M15", 20));
      const fb = items(await c2.get_footprint("QQQ", "US_STOCK", "M15", 20));
      expect(fb[0].result.slice(1)).toEqual(fa[0].result.slice(1));
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe.each(engines.slice(0, 1))("rate limit ($name)", (te) => {
  let g: Fixture;
  let offset = 0;
  beforeAll(async () => {
    g = await startFixture(te, { now: () => new Date(Date.now() + offset) });
    await clock(g.api, US_CORE);
  }, 60_000);
  afterAll(async () => g?.close());

  it("answers 600 market-data calls a minute per app key, refuses the 601st with 429, and again after the minute", async () => {
    const c = new DataSdkClient(g.sb.url, g.api.appKey, g.api.appSecret, g.api.token, "legacy", "HMAC-SHA1");
    for (let i = 0; i < 600; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => c.get_snapshot("AAPL", "US_STOCK")));
      expect(batch.every((r) => r.status === 200)).toBe(true);
    }
    const refused = await c.get_history_bar("AAPL", "US_STOCK", "M1", 1);
    expect(refused).toEqual({
      status: 429,
      body: { error_code: "TOO_MANY_REQUESTS", message: "Market data requests are limited to 600 per 60 seconds." },
    });
    // another app key has its own budget; other families are not counted
    const r = await g.api.call("POST", "/sandbox/trading-credentials", { body: { account_id: ACCOUNTS.cash } });
    const h = new DataSdkClient(g.sb.url, r.body.app_key, r.body.app_secret, undefined);
    await h.http.login();
    expect((await h.get_tick("AAPL", "US_STOCK", 1)).status).toBe(200);
    expect((await g.api.op("getBalance", "resource", { query: { account_id: ACCOUNTS.cash } })).status).toBe(200);
    offset += 60_000;
    expect((await c.get_snapshot("AAPL", "US_STOCK")).status).toBe(200);
  }, 60_000);
});
