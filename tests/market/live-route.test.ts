import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setBrokerForTests } from "@/server/broker";
import { marketHub } from "@/server/market";
import { engines, startFixture, type Fixture } from "../sandbox/fixture";
import { withAppDb } from "../helpers/app-db";
import { readEvents } from "../helpers/event-stream";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { until } from "../helpers/until";

/**
 * The live channel's market topics end to end: `/api/live?market=…` for ten tabs viewing one symbol, the process's
 * shared poller, the desk's Broker client and the sandbox's call counter.
 */
const session = vi.hoisted(() => ({
  staff: { id: "00000000-0000-4000-8000-000000000001", email: "s@x.test", name: "S", role: "support" },
}));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));

const SNAPSHOT = "GET /market-data/stocks/snapshots/list";
withAppDb();
let f: Fixture;
beforeAll(async () => {
  f = await startFixture(engines[0]);
  setBrokerForTests(sandboxBroker(f.sb.url));
});
afterAll(async () => {
  setBrokerForTests(undefined);
  await f?.close();
});

/** The `market` events' data of a live stream as they come, and `close`, which cancels the body as a browser's leaving tab does. */
function readMarketEvents(res: Response) {
  const events: { topic: string; at: number; data?: { last?: string } }[] = [];
  const { cancel } = readEvents(res.body!, (e) => {
    if (e.event === "market") events.push(JSON.parse(e.data!));
  });
  return { events, close: cancel };
}

describe("/api/live with market topics", () => {
  it("ten tabs viewing a symbol share one poller: the upstream calls of one; when they close, it stops", async () => {
    const { GET } = await import("@/app/api/live/route");
    await f.api.call("POST", "/sandbox/calls/reset");
    const streams = await Promise.all(
      Array.from({ length: 10 }, () => GET(new Request("http://desk.test/api/live?market=snapshot:US:AAPL,snapshot:US:aapl"))),
    );
    const tabs = streams.map(readMarketEvents);
    const seen = tabs.map((t) => t.events);
    await until(() => seen.every((events) => events.length >= 3), 20_000, "three quotes in each tab");
    expect(marketHub().polling()).toEqual(["snapshot:US:AAPL"]);
    expect(seen[0][0]).toMatchObject({ topic: "snapshot:US:AAPL", data: { last: expect.any(String) } });
    // The same answers reach every tab (a poller each would answer each tab at its own moments).
    const ats = seen.map((events) => events.map((e) => e.at));
    const first = ats.reduce((a, b) => (b[0] < a[0] ? b : a)); // the tab that subscribed first saw every later answer
    for (const tab of ats) {
      const from = first.indexOf(tab[0]);
      expect(from).toBeGreaterThanOrEqual(0);
      expect(tab.slice(0, 2)).toEqual(first.slice(from, from + 2));
    }

    await Promise.all(tabs.map((t) => t.close()));
    await until(() => marketHub().polling().length === 0, 20_000, "the poller to stop");
    // One upstream call per answer the ten tabs shared (and at most one more, in flight when they closed).
    const answers = new Set(seen.flat().map((e) => e.at)).size;
    const calls = ((await f.api.call("GET", "/sandbox/calls")).body as { data: Record<string, number> }).data[SNAPSHOT];
    expect(calls).toBeGreaterThanOrEqual(answers);
    expect(calls).toBeLessThanOrEqual(answers + 1);
  });
});
