import { createServer, type AddressInfo, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import type { AppDb } from "@/server/db";
import { ingest } from "@/server/books/ingest";
import { fromStream } from "@/server/events/ingest";
import { streamStatus } from "@/server/books/health";
import { startConsumer } from "@/server/events/consumer";
import { tryLead } from "@/server/events/leader";
import { testEngines, withEngineDb } from "../helpers/engines";

/**
 * The consumer's leadership by lease (server/events/leader.ts), on both engines: one holder at a time; an expired
 * lease (its holder frozen or cut off) is taken over with a new term, and the old holder's batch is refused inside
 * ingest's transaction, which makes it step down; a lease given up is taken at once.
 */
const event = (id: string) =>
  fromStream(
    JSON.stringify({
      id,
      event_type: "TRADE",
      timestamp: "2026-11-17T15:00:00.000Z",
      payload: { biz_type: "TRADE", scene_type: "MODIFY_SUCCESS", account_id: "A1", client_order_id: "c1", order_status: "SUBMITTED" },
    }),
  );

describe.each(testEngines())("the consumer's lease ($name)", (te) => {
  let db: AppDb;
  withEngineDb(te, (d) => {
    db = d;
  });
  const stored = async () =>
    (await db.engine.query<{ event_id: string }>("SELECT event_id FROM brokerdesk.upstream_events ORDER BY seq")).rows.map(
      (r) => r.event_id,
    );
  const resumePoint = async () =>
    (await db.engine.query<{ id: string | null }>("SELECT last_event_id AS id FROM brokerdesk.event_stream")).rows[0].id;

  it("refuses a batch of a leader whose lease was taken over, which then steps down", async () => {
    const a = (await tryLead(db.engine, "a"))!;
    expect(a).toBeDefined();
    expect(await tryLead(db.engine, "b")).toBeUndefined();
    expect((await ingest(db.engine, [event("1")], { lastEventId: "1" }, a.fence)).stored).toBe(1);

    // a stops renewing (frozen): here its lease is made to run out, and b takes it over.
    await db.engine.query("UPDATE brokerdesk.leases SET expires_at = now() WHERE name = 'event-consumer'");
    const b = (await tryLead(db.engine, "b"))!;
    expect(b).toBeDefined();
    expect((await ingest(db.engine, [event("2")], { lastEventId: "2" }, b.fence)).stored).toBe(1);

    // a wakes with a batch it had buffered: nothing of it is stored, the resume point stays b's, and a steps down.
    const late = await ingest(db.engine, [event("1"), event("3")], { lastEventId: "3" }, a.fence);
    expect(late.stored).toBe(0);
    expect(await stored()).toEqual(["1", "2"]);
    expect(await resumePoint()).toBe("2");
    await a.lost;
    expect(a.holds()).toBe(false);
    expect(b.holds()).toBe(true);

    // a gives up nothing it does not hold; b gives its lease up and another takes it at once.
    await a.release();
    expect(await tryLead(db.engine, "c")).toBeUndefined();
    await b.release();
    const c = (await tryLead(db.engine, "c"))!;
    expect(c).toBeDefined();
    await c.release();
  });
});

describe.each(testEngines())("a new leader's stream row ($name)", (te) => {
  let db: AppDb;
  withEngineDb(te, (d) => {
    db = d;
  });

  it("says down from the takeover until its own subscription succeeds, not the dead leader's connected", async () => {
    // The stream's row as a leader killed while connected leaves it.
    await db.engine.query(
      "UPDATE brokerdesk.event_stream SET leader = 'dead', connected = true, connected_at = now() - interval '1 hour', heartbeat_at = now() - interval '20 seconds'",
    );
    // An upstream that takes the connection and never answers the subscription.
    const held: Socket[] = [];
    const upstream = createServer((socket) => held.push(socket));
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    let onLead = () => undefined as void;
    const led = new Promise<void>((r) => (onLead = r));
    const consumer = startConsumer({
      engine: db.engine,
      instance: "standby",
      stream: { target: `127.0.0.1:${(upstream.address() as AddressInfo).port}`, appKey: "k", appSecret: "s" },
      silenceMs: 60_000,
      onLead: () => onLead(),
    });
    try {
      await led;
      const { rows } = await db.engine.query<{ leader: string; connected: boolean; disconnected_at: Date | null }>(
        "SELECT leader, connected, disconnected_at FROM brokerdesk.event_stream",
      );
      expect(rows[0]).toMatchObject({ leader: "standby", connected: false, disconnected_at: expect.any(Date) });
      expect(await streamStatus(db.engine, 60_000)).toMatchObject({ state: "down" });
    } finally {
      await consumer.stop();
      for (const s of held) s.destroy();
      upstream.close();
    }
  });
});
