import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Decimal } from "@/server/sandbox/money";
import { SimMarket } from "@/server/sandbox/trading/market";
import { sessionAt } from "@/server/sandbox/trading/sessions";
import { errorOf } from "../helpers/signed-fetch";
import type { Fixture } from "./fixture";
import { clock, setPrice, startTrading } from "./trading-helpers";

/** The simulated market: snapshots and bars in both path styles, control calls, sessions, determinism under a seed. */
let f: Fixture;
beforeAll(async () => {
  f = await startTrading();
}, 60_000);
afterAll(async () => f?.close());

describe("market data", () => {
  it("snapshot: price, bid < ask, session; legacy bare array, resource {data}", async () => {
    await setPrice(f.api, "AAPL", "200.00");
    const legacy = await f.api.op("getStockSnapshot", "legacy", { query: { symbols: "AAPL,MSFT", category: "US_STOCK" } });
    expect(legacy.status).toBe(200);
    expect(legacy.body).toHaveLength(2);
    expect(legacy.body[0]).toMatchObject({ symbol: "AAPL", price: "200.00", session: "CORE" });
    expect(Number(legacy.body[0].bid)).toBeLessThan(Number(legacy.body[0].ask));
    const res = await f.api.op("getStockSnapshot", "resource", { query: { symbols: "00700", category: "HK_STOCK" } });
    expect(res.body.data[0]).toMatchObject({ symbol: "00700", market: "HK", session: "CLOSED" });
    const unknown = await f.api.op("getStockSnapshot", "resource", { query: { symbols: "NOPE", category: "US_STOCK" } });
    expect(errorOf(unknown)).toEqual({ status: 417, code: "INSTRUMENT_NOT_FOUND" });
  });

  it("bars: count bars of the timespan ending at the current price (GET both styles, POST resource)", async () => {
    const legacy = await f.api.op("listStockBars", "legacy", {
      query: { symbol: "AAPL", category: "US_STOCK", timespan: "M5", count: 10 },
    });
    expect(legacy.body).toHaveLength(10);
    expect(legacy.body[0].close).toBe("200.00");
    const post = await f.api.call("POST", "/market-data/stocks/bars/list", {
      body: { symbol: "AAPL", category: "US_STOCK", timespan: "D", count: 3 },
    });
    expect(post.body.data).toHaveLength(3);
    expect(errorOf(await f.api.op("listStockBars", "resource", { query: { symbol: "AAPL", timespan: "X1" } }))).toEqual({
      status: 417,
      code: "ILLEGAL_PARAMETER",
    });
  });

  it("tick advances the random walk and the clock; the market clock reports each market's session", async () => {
    const before = (await f.api.op("getStockSnapshot", "resource", { query: { symbols: "SPY" } })).body.data[0].price;
    const t = await f.api.call("POST", "/sandbox/market/tick", { body: { steps: 20, advance_seconds: 60 } });
    expect(t.body).toMatchObject({ now: "2026-11-17T15:01:00.000Z", sessions: { US: "CORE", HK: "CLOSED", CN: "CLOSED" } });
    const after = (await f.api.op("getStockSnapshot", "resource", { query: { symbols: "SPY" } })).body.data[0].price;
    expect(after).not.toBe(before);
    expect((await clock(f.api, "2026-11-17T02:00:00Z")).sessions).toMatchObject({ HK: "CORE", CN: "CORE", US: "NIGHT" });
  });

  it("a closed market does not trade: the quote keeps its last trade and shows the last regular session's figures", async () => {
    const snapshot = async () => (await f.api.op("getStockSnapshot", "resource", { query: { symbols: "SPY" } })).body.data[0];
    try {
      await clock(f.api, "2026-11-21T15:00:00Z"); // a Saturday
      const before = await snapshot();
      const t = await f.api.call("POST", "/sandbox/market/tick", { body: { steps: 20, advance_seconds: 60 } });
      expect(t.body.sessions).toMatchObject({ US: "CLOSED", HK: "CLOSED", CN: "CLOSED" });
      const after = await snapshot();
      expect(after).toMatchObject({ session: "CLOSED", price: before.price, close: before.close });
      // The figures of the newest regular-session day bar, and the close of the one before it.
      const bars = await f.api.call("POST", "/market-data/stocks/bars/list", {
        body: { symbol: "SPY", category: "US_STOCK", timespan: "D", count: 2, trading_sessions: "RTH" },
      });
      const [session, previous] = bars.body.data;
      expect(after).toMatchObject({ open: session.open, high: session.high, low: session.low, volume: session.volume });
      expect(Number(after.volume)).toBeGreaterThan(0);
      expect(after.pre_close).toBe(previous.close);
      // Back in the regular session the walk trades again.
      await clock(f.api, "2026-11-23T15:00:00Z"); // the Monday after
      await f.api.call("POST", "/sandbox/market/tick", { body: { steps: 20 } });
      expect((await snapshot()).price).not.toBe(after.price);
    } finally {
      await clock(f.api, "2026-11-17T15:00:00Z");
    }
  });
});

describe("simulated market internals", () => {
  const rows = {
    rows: [
      { market: "US", symbol: "AAA", t: "EQUITY", last_price: "100", lot: "1" },
      { market: "HK", symbol: "00001", t: "EQUITY", last_price: "50", lot: "500" },
    ],
  };
  const db = { query: async () => rows } as never;
  const walk = async (seed: string) => {
    const m = new SimMarket(seed);
    await m.load(db, new Date(0));
    m.step(new Date(0), 50);
    return m.all().map((q) => q.last.toString());
  };

  it("is deterministic under a seed and differs across seeds", async () => {
    expect(await walk("s1")).toEqual(await walk("s1"));
    expect(await walk("s1")).not.toEqual(await walk("s2"));
  });

  it("options follow their underlying and their strikes: a call dearer the lower its strike, a put the higher", async () => {
    const m = new SimMarket("s1");
    const at = new Date("2026-11-02T15:00:00Z");
    const strikes = [90, 95, 100, 105, 110];
    // Each contract's loaded price has its own time value; the market prices the chain at one volatility a root.
    const rows = strikes.flatMap((k, i) =>
      (["CALL", "PUT"] as const).map((type) => ({
        market: "US",
        symbol: `AAA261218${type[0]}00${k}000`,
        t: "OPTION",
        last_price: String(Math.max(type === "CALL" ? 100 - k : k - 100, 0) + 2 + (i % 2) * 6),
        lot: "1",
        root: "AAA",
        type,
        strike: String(k),
        expiry: "2026-12-18",
      })),
    );
    const db = {
      query: async () => ({ rows: [{ market: "US", symbol: "AAA", t: "EQUITY", last_price: "100", lot: "1" }, ...rows] }),
    } as never;
    await m.load(db, at);
    const chain = (type: "CALL" | "PUT") => strikes.map((k) => m.get("OPTION", "US", `AAA261218${type[0]}00${k}000`)!.last.toNumber());
    m.set(m.get("EQUITY", "US", "AAA")!, new Decimal(120), at);
    for (let s = 0; s < 30; s += 1) {
      m.step(new Date(at.getTime() + s * 60_000));
      const spot = m.get("EQUITY", "US", "AAA")!.last.toNumber();
      const [calls, puts] = [chain("CALL"), chain("PUT")];
      for (let i = 1; i < strikes.length; i += 1) {
        expect(calls[i], `step ${s}: calls ${calls}`).toBeLessThan(calls[i - 1]);
        expect(puts[i], `step ${s}: puts ${puts}`).toBeGreaterThan(puts[i - 1]);
      }
      // Intrinsic value plus a time value: deep in the money the call is worth more than the spot above its strike.
      expect(calls[0]).toBeGreaterThan(spot - 90);
      expect(calls[0] - (spot - 90)).toBeLessThan(5);
    }
  });

  it("sessions follow exchange-local time, DST included", () => {
    expect(sessionAt("US", new Date("2026-07-14T13:45:00Z"))).toBe("CORE"); // 09:45 EDT
    expect(sessionAt("US", new Date("2026-11-17T14:15:00Z"))).toBe("PRE"); // 09:15 EST
    expect(sessionAt("US", new Date("2026-11-17T22:00:00Z"))).toBe("AFTER");
    expect(sessionAt("US", new Date("2026-11-21T15:00:00Z"))).toBe("CLOSED"); // Saturday
    expect(sessionAt("HK", new Date("2026-11-17T04:30:00Z"))).toBe("CLOSED"); // lunch break
    expect(sessionAt("CN", new Date("2026-11-17T06:00:00Z"))).toBe("CORE");
  });

  it("an early close ends the regular session early: the day after Thanksgiving at 13:00 New York, Christmas Eve in HK at noon", () => {
    expect(sessionAt("US", new Date("2026-11-27T17:59:00Z"))).toBe("CORE"); // 12:59 EST
    expect(sessionAt("US", new Date("2026-11-27T18:00:00Z"))).toBe("AFTER"); // 13:00
    expect(sessionAt("US", new Date("2026-11-27T21:59:00Z"))).toBe("AFTER"); // 16:59
    expect(sessionAt("US", new Date("2026-11-27T22:00:00Z"))).toBe("CLOSED"); // 17:00, and Saturday has no overnight
    expect(sessionAt("US", new Date("2026-11-27T01:00:00Z"))).toBe("NIGHT"); // 20:00 on Thanksgiving: the next day trades
    expect(sessionAt("HK", new Date("2026-12-24T03:00:00Z"))).toBe("CORE"); // 11:00 HKT
    expect(sessionAt("HK", new Date("2026-12-24T05:30:00Z"))).toBe("CLOSED"); // 13:30: no afternoon session
    expect(sessionAt("HK", new Date("2026-12-23T05:30:00Z"))).toBe("CORE");
  });
});
