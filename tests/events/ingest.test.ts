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

  const order = async (id: string) =>
    (
      await db.engine.query<Record<string, string>>(
        `SELECT status, filled_quantity::text AS f, avg_filled_price::text AS p, commission::text AS c
           FROM brokerdesk.orders WHERE client_order_id = $1`,
        [id],
      )
    ).rows[0];
  const fillJson = (id: string, order: string, qty: string, price: string, second: number, extra: Record<string, unknown> = {}) =>
    trade(id, "FILLED", {
      client_order_id: order,
      order_status: "PARTIAL_FILLED",
      filled_qty: qty,
      filled_price: price,
      filled_time: `2026-11-17T15:00:${String(second).padStart(2, "0")}.000+0000`,
      actual_commission: "0.50",
      ...extra,
    });
  const fill = (...a: Parameters<typeof fillJson>) => fromStream(fillJson(...a));

  it("an order's fills add up across batches and within one: quantity, average price, commission", async () => {
    await ingest(db.engine, [fill("f1", "c4", "4", "100", 1)]);
    expect(await order("c4")).toEqual({ status: "PARTIAL_FILLED", f: "4", p: "100.000000", c: "0.50" });
    await ingest(db.engine, [fill("f2", "c4", "3", "101", 2), fill("f3", "c4", "3", "102", 3, { order_status: "FILLED" })]);
    // (4 × 100 + 3 × 101 + 3 × 102) / 10
    expect(await order("c4")).toEqual({ status: "FILLED", f: "10", p: "100.900000", c: "1.50" });
  });

  it("writes a filled order once a batch, its fields and its executions' roll-up together", async () => {
    await db.engine.exec(`CREATE TABLE public.order_writes (n int NOT NULL);
      CREATE FUNCTION public.count_order_write() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO public.order_writes VALUES (1); RETURN NULL; END $$;
      CREATE TRIGGER count_order_write AFTER INSERT OR UPDATE ON brokerdesk.orders FOR EACH ROW EXECUTE FUNCTION public.count_order_write();`);
    try {
      await ingest(db.engine, [fill("w1", "c9", "2", "10", 6)]);
      await ingest(db.engine, [fill("w2", "c9", "2", "11", 7), fill("w3", "c9", "1", "12", 8, { order_status: "FILLED" })]);
      expect(await q("SELECT count(*)::int AS n FROM public.order_writes")).toEqual([{ n: 2 }]);
      expect(await order("c9")).toEqual({ status: "FILLED", f: "5", p: "10.800000", c: "1.50" });
    } finally {
      await db.engine.exec(
        "DROP TRIGGER count_order_write ON brokerdesk.orders; DROP FUNCTION public.count_order_write(); DROP TABLE public.order_writes",
      );
    }
  });

  it("a fill stored after newer news of its order still counts, and leaves the newer fields as they are", async () => {
    await ingest(db.engine, [fromStream(trade("g1", "CANCEL_SUCCESS", { client_order_id: "c5", order_status: "CANCELLED" }))]);
    // Projected with a seq before the cancel's, as a fill the stream delivered late and a replay applies.
    const { changes } = interpret(JSON.parse(fillJson("g0", "c5", "5", "50", 5)));
    await db.engine.transaction((tx) =>
      project(
        tx,
        changes.map((change) => ({ seq: 1, change })),
      ),
    );
    expect(await order("c5")).toEqual({ status: "CANCELLED", f: "5", p: "50.000000", c: "0.50" });
  });

  it("a detail that knew of more fills keeps its figures when fewer executions are stored", async () => {
    await ingest(db.engine, [
      fromStream(trade("h1", "MODIFY_SUCCESS", { client_order_id: "c6", order_status: "FILLED", filled_qty: "10", filled_price: "99" })),
    ]);
    await ingest(db.engine, [fill("h2", "c6", "4", "100", 4, { order_status: "FILLED" })]);
    expect(await order("c6")).toMatchObject({ status: "FILLED", f: "10", p: "99" });
  });

  it("an event that does not say the order's status leaves the known one", async () => {
    await ingest(db.engine, [fromStream(trade("k1", "CANCEL_SUCCESS", { client_order_id: "c7", order_status: "CANCELLED" }))]);
    await ingest(db.engine, [fromStream(trade("k2", "MODIFY_SUCCESS", { client_order_id: "c7", order_status: undefined }))]);
    expect((await order("c7")).status).toBe("CANCELLED");
    // An order first seen without one is UNKNOWN until an event says.
    await ingest(db.engine, [fromStream(trade("k3", "MODIFY_SUCCESS", { client_order_id: "c8", order_status: undefined }))]);
    expect((await order("c8")).status).toBe("UNKNOWN");
  });
});
