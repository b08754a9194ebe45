import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "@/server/db/engine";
import { MarketHub, type MarketEvent } from "@/server/market/hub";
import { marketReads } from "@/server/market/reads";
import { noticeShare } from "@/server/market/share";
import { startFixture, engines, type Fixture } from "../sandbox/fixture";
import { testEngines } from "../helpers/engines";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { until } from "../helpers/until";

/**
 * Two app instances' hubs on one database (the change-notice channel between them), each with a viewer of the same
 * symbol: the upstream answers about as many snapshot calls as one instance alone would make, not twice as many.
 */
const SNAPSHOT = "GET /market-data/stocks/snapshots/list";
let f: Fixture;
beforeAll(async () => {
  f = await startFixture(engines[0]);
});
afterAll(() => f?.close());

describe.each(testEngines())("hubs sharing answers ($name)", (te) => {
  let db: { engine: Engine; close(): Promise<void> };
  beforeAll(async () => {
    db = await te.open();
  });
  afterAll(() => db?.close());

  it("two instances viewing one symbol: one poller's pace upstream, the same answers on both", async () => {
    await f.api.call("POST", "/sandbox/calls/reset");
    // A poll every 200 ms (a fifth of the real pace), the budget wide enough not to stretch it.
    const hub = () =>
      new MarketHub({
        reads: marketReads(() => sandboxBroker(f.sb.url)),
        speed: 0.2,
        perSecond: 1_000,
        share: noticeShare(async () => db.engine),
      });
    const [a, b] = [hub(), hub()];
    const seen: MarketEvent[][] = [[], []];
    const offs: (() => void)[] = [];
    [a, b].forEach((h, i) =>
      offs.push(
        h.subscribe("snapshot", "US", "MSFT", (e) => {
          seen[i].push(e);
          if (seen.every((s) => s.length >= 12)) offs.forEach((off) => off());
        }),
      ),
    );
    await until(() => a.polling().length + b.polling().length === 0, 30_000, "both viewers to have twelve quotes");
    const calls = ((await f.api.call("GET", "/sandbox/calls")).body as { data: Record<string, number> }).data[SNAPSHOT];
    // Two unshared pollers would have made one call for each answer either viewer saw (24 or more).
    expect(calls).toBeLessThanOrEqual(16);
    const ats = seen.map((events) => new Set(events.map((e) => e.at)));
    const common = [...ats[0]].filter((at) => ats[1].has(at)).length;
    expect(common).toBeGreaterThanOrEqual(8);
  });
});
