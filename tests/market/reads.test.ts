import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marketReads } from "@/server/market/reads";
import { startFixture, engines, type Fixture } from "../sandbox/fixture";
import { sandboxBroker } from "../helpers/sandbox-broker";

let f: Fixture;
let reads: ReturnType<typeof marketReads>;
beforeAll(async () => {
  f = await startFixture(engines[0]);
  const client = sandboxBroker(f.sb.url);
  reads = marketReads(() => client);
  // 15:55 New York: the closing auction publishes its imbalance.
  await f.api.call("POST", "/sandbox/market/clock", { body: { now: "2026-11-17T20:55:00Z" } });
  await f.api.call("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "231.40" } });
});
afterAll(() => f?.close());

describe("market reads through the desk's Broker client", () => {
  it("the quote is the sandbox's snapshot, with the session and the extended-hours price", async () => {
    const q = await reads.snapshot("US", "AAPL");
    const raw = (await f.api.call("GET", "/market-data/stocks/snapshots/list", { query: { symbols: "AAPL", category: "US_STOCK" } })).body
      .data[0];
    expect(q).toMatchObject({ symbol: "AAPL", market: "US", last: "231.40", bid: raw.bid, ask: raw.ask, session: "CORE" });
    expect(q.extPrice).toMatch(/^\d+\.\d+$/);
  });

  it("bars ascend in time, once each; depth, ticks and footprint agree with the tape", async () => {
    const bars = await reads.bars("US", "AAPL", "M1");
    expect(bars.length).toBeGreaterThan(100);
    expect(bars.every((b, i) => i === 0 || b.time > bars[i - 1].time)).toBe(true);
    expect(bars.at(-1)?.close).toBe("231.40");

    const depth = await reads.depth("US", "AAPL");
    expect(depth.bids.length).toBe(10);
    expect(Number(depth.bids[0].price)).toBeLessThan(Number(depth.asks[0].price));

    const ticks = await reads.tick("US", "AAPL");
    expect(ticks[0]).toMatchObject({ price: "231.40" });
    expect(ticks.every((t, i) => i === 0 || t.time <= ticks[i - 1].time)).toBe(true);

    const [minute] = await reads.footprint("US", "AAPL");
    expect(minute.levels.some((l) => l.price === "231.40")).toBe(true);
  });

  it("the NOII of the auction running, and a clear not-found for an unknown symbol", async () => {
    expect(await reads.noii("US", "AAPL")).toMatchObject({ type: "PRE_CLOSE", referencePrice: expect.any(String) });
    expect(await reads.noii("HK", "00700")).toBeNull();
    await expect(reads.snapshot("US", "NOPE")).rejects.toMatchObject({ name: "NotFoundError" });
    await expect(reads.depth("US", "NOPE")).rejects.toMatchObject({ name: "NotFoundError" });
  });
});
