import { describe, expect, it } from "vitest";
import { JOBS } from "@/server/jobs/definitions";
import { engines } from "../sandbox/fixture";
import { ACCOUNTS, place, setPrice, stock } from "../sandbox/trading-helpers";
import { activity, expectInSync, lastSandboxEventId, mark, q } from "./drill";
import { until } from "./helpers";
import { useStartedFixture } from "../helpers/started-fixture";

/**
 * Issue 24, item 2: a consumer stopped after the first backfill and before it stored any event resumed from nothing,
 * at the then newest event, and the backfill never ran again; the events in between were lost for good. Now the
 * upstream's resume point is kept on subscribe, and a gap the stream cannot resume over is backfilled.
 */
describe.each(engines)("resuming on a fresh database ($name)", (te) => {
  const f = useStartedFixture(te, 120_000, (started) => setPrice(started.api, "KO", "60.00"));

  const stream = async () =>
    (await q<{ connected: boolean; last_event_id: string | null }>(f, "SELECT connected, last_event_id FROM brokerdesk.event_stream"))[0];
  const backfills = () =>
    q<{ status: string; gap_from: Date | null }>(f, "SELECT status, gap_from FROM brokerdesk.sync_runs WHERE job = 'backfill' ORDER BY id");

  it("stopped after the backfill and before its first event: restarted, it stores every event of the gap once", async () => {
    const fromId = await lastSandboxEventId(f);
    const since = await mark(f);
    let consumer = f.consumer();
    // Nothing stored yet, yet the books know where the stream stands: the point the upstream answered. The backfill
    // starts after it: one finished before the subscribe would leave a real gap to the stream's point (the second test).
    const subscribed = await until(
      async () => {
        const s = await stream();
        return s?.connected && s.last_event_id ? s : undefined;
      },
      20_000,
      "connected, the upstream's resume point kept",
    );
    expect(subscribed.last_event_id).toBe(String(fromId));
    await f.jobs({ jobs: [JOBS.backfill] }); // runs through both tests, as in the app
    await until(async () => (await backfills()).some((r) => r.status === "done"), 30_000, "the first backfill done");
    await consumer.stop();

    await activity(f, 4); // orders, executions and journals while no consumer runs
    expect(await lastSandboxEventId(f)).toBeGreaterThan(fromId);
    consumer = f.consumer();
    await expectInSync(f, fromId, since);
    await consumer.stop();
    // No gap: the stream resumed from the books' point.
    expect((await backfills()).map((r) => r.gap_from)).toEqual([null]);
  }, 90_000);

  it("a gap the stream cannot resume over (no resume point after a finished backfill) is backfilled", async () => {
    // The state the earlier code left: a backfill done, no resume point, and orders made meanwhile.
    await f.db.engine.query("UPDATE brokerdesk.event_stream SET last_event_id = NULL, last_event_at = NULL");
    const since = await mark(f);
    const resting = stock({ symbol: "AAPL", limit_price: "1.00", quantity: "1" });
    const filled = stock({ symbol: "KO", limit_price: "61.00", quantity: "1" });
    await place(f.api, ACCOUNTS.margin, [resting]);
    await place(f.api, ACCOUNTS.margin, [filled]);
    const consumer = f.consumer();
    await until(async () => (await stream())?.last_event_id, 20_000, "the upstream's resume point kept");
    await until(async () => (await backfills()).some((r) => r.gap_from && r.status === "done"), 30_000, "the gap backfilled");
    const books = await q<{ client_order_id: string; status: string; sandbox: string }>(
      f,
      `SELECT s.client_order_id, o.status, s.status AS sandbox FROM sandbox.orders s
         LEFT JOIN brokerdesk.orders o USING (account_id, client_order_id) WHERE s.seq > $1 ORDER BY s.seq`,
      [since.orderSeq],
    );
    expect(books.map((b) => b.client_order_id)).toEqual([resting.client_order_id, filled.client_order_id]);
    expect(books.map((b) => b.status)).toEqual(books.map((b) => b.sandbox));
    // Recorded once, and the job does not run it again.
    expect((await backfills()).filter((r) => r.gap_from)).toHaveLength(1);
    await consumer.stop();
  }, 90_000);
});
