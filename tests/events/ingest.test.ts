import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppDb, type AppDb } from "@/server/db";
import { interpret } from "@/server/books/changes";
import { ingest } from "@/server/books/ingest";
import { fromStream } from "@/server/events/ingest";
import { project } from "@/server/books/queries/project";
import { testEngines } from "../helpers/engines";

/** Storing and projecting events: unknown and malformed messages are kept and counted; projection is idempotent. */
const trade = (id: string, scene: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    event_type: "TRADE",
    timestamp: "2026-11-17T15:00:00.000Z",
    payload: {
      biz_type: "TRADE",
      scene_type: scene,
      account_id: "A1",
      client_order_id: "c1",
      order_id: "o1",
      symbol: "AAPL",
      category: "US_STOCK",
      side: "BUY",
      order_type: "LIMIT",
      qty: "10",
      order_status: "SUBMITTED",
      ...extra,
    },
  });

describe.each(testEngines())("ingest ($name)", (te) => {
  let db: AppDb;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const opened = await te.open();
    db = await prepareAppDb(opened.engine);
    close = opened.close;
  });
  afterAll(async () => close?.());
  const q = async <T>(sql: string) => (await db.engine.query<T>(sql)).rows;

  it("unknown event types and malformed payloads are stored and counted, never thrown", async () => {
    const r = await ingest(
      db.engine,
      [
        fromStream("{not json"),
        fromStream(JSON.stringify({ id: "u1", event_type: "SOMETHING_NEW", payload: { x: 1 } })),
        fromStream(JSON.stringify({ id: "u2", event_type: "TRADE", payload: "not an object" })),
        fromStream(trade("e1", "MODIFY_SUCCESS")),
      ],
      { lastEventId: "e1" },
    );
    expect(r.stored).toBe(4);
    const rows = await q<{ event_type: string; outcome: string }>(
      "SELECT event_type, outcome FROM brokerdesk.upstream_events ORDER BY seq",
    );
    expect(rows).toEqual([
      { event_type: "MALFORMED", outcome: "malformed" },
      { event_type: "SOMETHING_NEW", outcome: "unknown" },
      { event_type: "MALFORMED", outcome: "malformed" },
      { event_type: "TRADE", outcome: "projected" },
    ]);
    const [s] = await q<{ unknown_count: string; malformed_count: string; last_event_id: string }>(
      "SELECT unknown_count::text, malformed_count::text, last_event_id FROM brokerdesk.event_stream",
    );
    expect(s).toEqual({ unknown_count: "1", malformed_count: "2", last_event_id: "e1" });
  });

  it("the same event twice is stored once and changes nothing the second time", async () => {
    const fill = trade("e2", "FINAL_FILLED", {
      order_status: "FILLED",
      filled_qty: "10",
      filled_price: "100.5",
      filled_time: "2026-11-17T15:00:01.000+0000",
      actual_commission: "1.00",
    });
    const first = await ingest(db.engine, [fromStream(fill)]);
    const second = await ingest(db.engine, [fromStream(fill)]);
    expect([first.stored, second.stored, second.duplicates]).toEqual([1, 0, 1]);
    const orders = await q<Record<string, string>>(
      "SELECT status, filled_quantity::text AS f, avg_filled_price::text AS p, commission::text AS c FROM brokerdesk.orders",
    );
    expect(orders).toEqual([{ status: "FILLED", f: "10", p: "100.500000", c: "1.00" }]);
    // Projecting an already-applied change again (a replay) leaves the rows as they are.
    const seq = Number((await q<{ s: string }>("SELECT max(seq)::text AS s FROM brokerdesk.upstream_events"))[0].s);
    const { changes } = interpret(JSON.parse(fill));
    await db.engine.transaction((tx) =>
      project(
        tx,
        changes.map((change) => ({ seq, change })),
      ),
    );
    expect(await q("SELECT count(*)::int AS n FROM brokerdesk.executions")).toEqual([{ n: 1 }]);
    expect(
      await q<Record<string, string>>(
        "SELECT status, filled_quantity::text AS f, avg_filled_price::text AS p, commission::text AS c FROM brokerdesk.orders",
      ),
    ).toEqual(orders);
  });

  it("an older event never overwrites a newer one", async () => {
    await ingest(db.engine, [fromStream(trade("e3", "CANCEL_SUCCESS", { client_order_id: "c2", order_status: "CANCELLED" }))]);
    const seq = 1; // before e3
    const { changes } = interpret(JSON.parse(trade("e0", "MODIFY_SUCCESS", { client_order_id: "c2", order_status: "SUBMITTED" })));
    await db.engine.transaction((tx) =>
      project(
        tx,
        changes.map((change) => ({ seq, change })),
      ),
    );
    expect(await q("SELECT status FROM brokerdesk.orders WHERE client_order_id = 'c2'")).toEqual([{ status: "CANCELLED" }]);
  });
});
