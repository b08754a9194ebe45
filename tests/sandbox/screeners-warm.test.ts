import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf, STOCK_CATEGORIES } from "@/server/sandbox/market-data/reference";
import { warmYearOfBars } from "@/server/sandbox/market-data/screeners";
import { engines, startFixture, type Fixture } from "./fixture";
import { clock, US_CORE } from "./trading-helpers";

/**
 * A sandbox started as `npm start` starts it (`warmHistory`) reads a year of every stock's daily bars in small steps,
 * so the first 52-week ranking finds them kept instead of folding a year of history ticks while its caller waits.
 * One engine: the tape lives in memory, whatever the database.
 */
describe("a year of daily bars read ahead", () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(engines[0]);
    await clock(f.api, US_CORE);
  }, 60_000);
  afterAll(async () => f?.close());

  it("gives way to other work between steps; the 52-week ranking then computes no history", async () => {
    const sb = f.sb.sandbox;
    let turns = 0;
    let warming = true;
    const count = () => {
      turns += 1;
      if (warming) setImmediate(count);
    };
    setImmediate(count);
    await warmYearOfBars(sb, new AbortController().signal);
    warming = false;

    const stocks = (await Promise.all(STOCK_CATEGORIES.map((c) => rowsOf(sb, c)))).flat();
    // Twelve steps of three weeks a stock, each followed by a turn of the event loop.
    expect(turns).toBeGreaterThanOrEqual(stocks.length * 12);

    const us = (await rowsOf(sb, "US_STOCK")).map((r) => r.q.tape);
    const computed = () => us.reduce((n, tape) => n + tape.historyComputed, 0);
    const before = computed();
    expect(before).toBeGreaterThan(0);
    for (const rank_type of ["NEAR_HIGH", "NEW_LOW"]) {
      const res = await f.api.call("GET", "/market-data/screeners/week52-high-low/list", { query: { category: "US_STOCK", rank_type } });
      expect(res.status).toBe(200);
    }
    expect(computed()).toBe(before);
  }, 120_000);
});

describe("the read-ahead on /health", () => {
  const health = async (f: Fixture) => (await (await fetch(`${f.sb.url}/health`)).json()) as { status: string; readingAhead: boolean };

  it("says readingAhead from the start until the year is read; a sandbox started without it never does", async () => {
    const reading = await startFixture(engines[0], { warmHistory: true });
    const plain = await startFixture(engines[0]);
    try {
      expect(await health(reading)).toEqual({ status: "ok", readingAhead: true });
      expect(await health(plain)).toEqual({ status: "ok", readingAhead: false });
      await expect.poll(async () => (await health(reading)).readingAhead, { timeout: 120_000, interval: 200 }).toBe(false);
      // Done, not abandoned: the 52-week ranking's bars are kept.
      const us = (await rowsOf(reading.sb.sandbox, "US_STOCK")).map((r) => r.q.tape);
      expect(us.every((tape) => tape.historyComputed > 0)).toBe(true);
    } finally {
      await Promise.all([reading.close(), plain.close()]);
    }
  }, 150_000);
});
