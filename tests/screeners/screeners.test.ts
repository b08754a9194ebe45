import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setBrokerForTests } from "@/server/broker";
import { loadScreener } from "@/server/screeners";
import { SharedCache } from "@/server/screeners/cache";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { engines, startFixture, type Fixture } from "../sandbox/fixture";
import { clock, US_CORE } from "../sandbox/trading-helpers";

/** The desk's screeners: the sandbox's ranking through the Broker client on both path styles, shared for 30 s. */
describe("SharedCache", () => {
  it("makes one call per key per lifetime, shares it with callers that arrive meanwhile, and keeps no failure", async () => {
    let now = 0;
    const cache = new SharedCache<number>(30_000, () => now);
    let calls = 0;
    const load = () => new Promise<number>((resolve) => setTimeout(() => resolve((calls += 1)), 5));
    expect(await Promise.all([cache.get("a", load), cache.get("a", load), cache.get("b", load)])).toEqual([1, 1, 2]);
    now = 29_999;
    expect(await cache.get("a", load)).toBe(1);
    now = 30_000;
    expect(await cache.get("a", load)).toBe(3);
    await expect(cache.get("c", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("c", load)).toBe(4);
  });
});

describe.each(["resource", "legacy"] as const)("loadScreener against the sandbox (%s paths)", (pathStyle) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(engines[0]);
    await clock(f.api, US_CORE);
    await f.api.call("POST", "/sandbox/market/tick", { body: { steps: 30 } });
    setBrokerForTests(sandboxBroker(f.sb.url, { pathStyle }));
  }, 60_000);
  afterAll(async () => {
    setBrokerForTests(undefined);
    await f?.close();
  });

  const calls = async (path: string) => (await f.api.call("GET", "/sandbox/calls")).body.data[`GET ${path}`] ?? 0;

  it("gainers and losers are the upstream's ranking (first 20 rows), read once for every viewer", async () => {
    const path = pathStyle === "resource" ? "/market-data/screeners/gainers-losers/list" : "/openapi/market-data/screener/gainers-losers";
    const direct = await f.api.call("GET", path, {
      query: { category: "US_STOCK", rank_type: "DAY_1", sort_by: "CHANGE_RATIO", direction: "DESC" },
    });
    const want = (Array.isArray(direct.body) ? direct.body : direct.body.data).slice(0, 20);
    const before = await calls(path);
    const p = { screener: "gainers", category: "US_STOCK", direction: "DESC", rank: `DAY_1-${pathStyle}` } as const;
    // An unknown rank falls back to DAY_1 and keeps this test's cache key apart from the other path style's.
    const answers = await Promise.all([loadScreener(p), loadScreener(p), loadScreener(p)]);
    expect(await calls(path)).toBe(before + 1);
    expect(answers[0].rows.map((r) => [r.symbol, r.price, r.change_ratio])).toEqual(
      want.map((r: { symbol: string; price: string; change_ratio: string }) => [r.symbol, r.price, r.change_ratio]),
    );
    expect(answers[0]).toMatchObject({ market: "US", hasMore: true });
  });

  it("sector detail without a sector reads the largest sector's members; sectors list them all", async () => {
    const key = pathStyle === "resource" ? "HK_STOCK" : "CN_STOCK";
    const sectors = await loadScreener({ screener: "sectors", category: key, direction: "DESC" });
    expect(sectors.sectors!.length).toBeGreaterThan(1);
    const detail = await loadScreener({ screener: "sector-detail", category: key, direction: "DESC" });
    expect(detail.sector?.sector_id).toBe(sectors.sectors![0].sector_id);
    expect(detail.rows.length).toBe(sectors.sectors![0].stock_count);
    expect(detail.market).toBe(key === "HK_STOCK" ? "HK" : "CN");
  });
});
