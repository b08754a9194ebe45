import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { QuoteView } from "@/lib/market";
import { logger } from "@/server/log";
import { MarketHub, type MarketEvent } from "@/server/market/hub";
import { marketReads } from "@/server/market/reads";
import { startFixture, engines, type Fixture } from "../sandbox/fixture";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { until } from "../helpers/until";

const SNAPSHOT = "GET /market-data/stocks/snapshots/list";

let f: Fixture;
let hub: MarketHub;
beforeAll(async () => {
  f = await startFixture(engines[0]);
  const client = sandboxBroker(f.sb.url);
  // The pollers at a twentieth of their pace (a snapshot every 50 ms), the budget wide enough not to stretch them.
  hub = new MarketHub({ reads: marketReads(() => client), speed: 0.05, perSecond: 1_000 });
});
afterAll(() => f?.close());

const snapshotCalls = async () =>
  ((await f.api.call("GET", "/sandbox/calls")).body as { data: Record<string, number> }).data[SNAPSHOT] ?? 0;
const prices = (events: MarketEvent[]) => events.map((e) => ("data" in e ? (e.data as QuoteView).last : e.error));

describe("the shared market poller", () => {
  it("ten subscribers of one symbol cost the upstream one poller, and nothing once they leave", async () => {
    await f.api.call("POST", "/sandbox/calls/reset");
    const seen = Array.from({ length: 10 }, () => [] as MarketEvent[]);
    let pinned = false;
    // Everyone leaves from inside the delivery of an answer that came after the pin and four more: no call is in
    // flight then, and the answer being delivered still reaches all ten.
    const offs: (() => void)[] = [];
    const leaveAfter = (events: MarketEvent[]) => {
      const i = prices(events).indexOf("201.37");
      if (pinned && i >= 0 && events.length >= i + 5) offs.forEach((off) => off());
    };
    seen.forEach((events, n) =>
      offs.push(
        hub.subscribe("snapshot", "US", "AAPL", (e) => {
          events.push(e);
          if (n === 0) leaveAfter(events);
        }),
      ),
    );
    expect(hub.polling()).toEqual(["snapshot:US:AAPL"]);

    // A price pinned upstream reaches every subscriber through the one poller.
    await f.api.call("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "201.37" } });
    pinned = true;
    await until(() => hub.polling().length === 0, 20_000, "the subscribers to leave");

    // Every upstream answer went to all ten, and the sandbox answered exactly as many snapshot calls as there were answers.
    const answers = seen[0].length;
    for (const events of seen) expect(prices(events)).toEqual(prices(seen[0]));
    expect(prices(seen[0])).toContain("201.37");
    expect(await snapshotCalls()).toBe(answers);

    // Another symbol's poller runs through several of its intervals; AAPL's count does not move meanwhile.
    const other: MarketEvent[] = [];
    const off = hub.subscribe("snapshot", "US", "MSFT", (e) => {
      other.push(e);
      if (other.length === 4) off();
    });
    await until(() => hub.polling().length === 0, 20_000, "four MSFT polls");
    expect(await snapshotCalls()).toBe(answers + other.length);
    expect(seen[0].length).toBe(answers);
  });

  it("a subscriber that throws keeps the answer from no subscriber after it", async () => {
    const failed = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const after: MarketEvent[] = [];
    const offBroken = hub.subscribe("snapshot", "US", "TSLA", () => {
      throw new Error("a broken reader");
    });
    const offAfter = hub.subscribe("snapshot", "US", "TSLA", (e) => after.push(e));
    try {
      await until(() => after.length >= 2, 20_000, "two answers after the broken subscriber");
      expect(failed.mock.calls.length).toBeGreaterThanOrEqual(2);
    } finally {
      offBroken();
      offAfter();
      failed.mockRestore();
    }
  });

  it("a read while the poller's value is fresh makes no call; concurrent reads make one", async () => {
    await f.api.call("POST", "/sandbox/calls/reset");
    const slow = new MarketHub({ reads: marketReads(() => sandboxBroker(f.sb.url)), perSecond: 1_000 });
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => slow.read("snapshot", "US", "NVDA")));
    expect(a).toEqual(b);
    expect(b).toEqual(c);
    await slow.read("snapshot", "US", "NVDA");
    expect(await snapshotCalls()).toBe(1);
  });

  it("an unknown symbol is a not-found for its subscribers, and the poller keeps its budget", async () => {
    const events: MarketEvent[] = [];
    const off = hub.subscribe("snapshot", "US", "NOPE", (e) => events.push(e));
    await until(() => events.length >= 1, 20_000, "an answer");
    off();
    expect(events[0]).toMatchObject({ topic: "snapshot:US:NOPE", error: "No instrument NOPE in this market." });
    await expect(hub.read("snapshot", "US", "NOPE")).rejects.toMatchObject({ name: "NotFoundError" });
  });
});
