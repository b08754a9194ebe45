import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Engine } from "@/server/db/engine";
import { BASE_INTERVAL_MS, MarketHub, type MarketEvent } from "@/server/market/hub";
import { marketReads } from "@/server/market/reads";
import { noticeShare } from "@/server/market/share";
import { onChange } from "@/server/notices/listen";
import { startFixture, engines, type Fixture } from "../sandbox/fixture";
import { testEngines } from "../helpers/engines";
import { sandboxBroker } from "../helpers/sandbox-broker";

/**
 * Two app instances' hubs on one database (the change-notice channel between them), each with a viewer of the same
 * symbol: the upstream answers as many snapshot calls as one instance alone would make, not twice as many.
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
    // A poll every 200 ms (a fifth of the real pace), the budget wide enough not to stretch it; the calls counted as
    // the hubs make them.
    const SPEED = 0.2;
    let calls = 0;
    const reads = marketReads(() => sandboxBroker(f.sb.url));
    const hub = () =>
      new MarketHub({
        reads: {
          ...reads,
          snapshot: (...args) => {
            calls++;
            return reads.snapshot(...args);
          },
        },
        speed: SPEED,
        perSecond: 1_000,
        share: noticeShare(async () => db.engine),
      });
    const [a, b] = [hub(), hub()];
    const seen: MarketEvent[][] = [[], []];
    let shared = 0;
    let wake = () => undefined as void;
    const when = async (cond: () => boolean) => {
      while (!cond()) await new Promise<void>((r) => (wake = r));
    };
    // Every answer a hub shares, heard on the channel (by both hubs too: one notice reaches every listener at once).
    const off = await onChange(db.engine, (n) => {
      if (!n.market) return;
      shared++;
      wake();
    });
    const view = (h: MarketHub, i: number) =>
      h.subscribe("snapshot", "US", "MSFT", (e) => {
        seen[i].push(e);
        wake();
      });
    // Until every call made was answered and its answer heard by both hubs; then a millisecond on (a hub takes an
    // answer only when it is newer than its own).
    const settled = async () => {
      await when(() => shared === calls);
      const last = Math.max(...seen.flat().map((e) => e.at));
      while (Date.now() <= last) await new Promise((r) => setImmediate(r));
    };
    // The pollers' clock moves by hand, an interval at a time once the last answer has reached both hubs: how long a
    // call or a notice takes (a busy machine) cannot decide which hub polls next. Only the timers' clock; the sandbox,
    // the database and the notices run as they do.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldClearNativeTimers: true });
    const offs: (() => void)[] = [];
    try {
      offs.push(view(a, 0));
      await vi.advanceTimersByTimeAsync(0);
      await settled();
      // The second instance's viewer has nothing to show yet: one call of its own, whose answer the first takes, and
      // from then on the first listens.
      offs.push(view(b, 1));
      await vi.advanceTimersByTimeAsync(0);
      await settled();
      expect(calls).toBe(2);
      while (seen[1].length < 12) {
        const before = calls;
        await vi.advanceTimersByTimeAsync(BASE_INTERVAL_MS.snapshot * SPEED);
        expect(calls, "one call an interval").toBe(before + 1);
        await settled();
      }
    } finally {
      offs.forEach((o) => o());
      off();
      vi.useRealTimers();
    }
    const ats = seen.map((events) => events.map((e) => e.at));
    // From the second viewer's first answer on, both saw the same answers, each once...
    expect(ats[0].slice(1)).toEqual(ats[1]);
    // ...and the upstream answered one call for each, not one for each instance (two unshared pollers: 24 or more).
    const upstream = ((await f.api.call("GET", "/sandbox/calls")).body as { data: Record<string, number> }).data[SNAPSHOT];
    expect(upstream).toBe(ats[0].length);
  });
});
