import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rebuildReadModel } from "@/server/books/ingest";
import { JOBS } from "@/server/jobs/definitions";
import { engines } from "../sandbox/fixture";
import { ACCOUNTS, place, rid, setPrice, stock } from "../sandbox/trading-helpers";
import { startEventsFixture, streamConnected, until, type EventsFixture } from "./helpers";

/** The event consumer against a started sandbox: orders and movements made at the sandbox reach the read model. */
describe.each(engines)("event consumer and read model ($name)", (te) => {
  let f: EventsFixture;
  beforeAll(async () => {
    f = await startEventsFixture(te);
    f.consumer();
    await streamConnected(f);
  }, 60_000);
  afterAll(async () => f?.close());

  const orderRow = async (coid: string) =>
    (
      await f.db.engine.query<Record<string, string>>(
        "SELECT status, filled_quantity::text, avg_filled_price::text, commission::text, symbol, side FROM brokerdesk.orders WHERE client_order_id = $1",
        [coid],
      )
    ).rows[0];

  // How fast is the events bench's to say (npm run bench:events); here, that it arrives with no call of the desk's.
  it("an order placed and cancelled directly at the sandbox appears cancelled, with its status changes", async () => {
    const o = stock({ symbol: "AAPL", limit_price: "1.00", quantity: "2" });
    expect((await place(f.api, ACCOUNTS.margin, [o])).status).toBe(200);
    await f.api.op("cancelOrder", "resource", { body: { account_id: ACCOUNTS.margin, client_order_id: o.client_order_id } });
    const row = await until(
      async () => (await orderRow(o.client_order_id as string))?.status === "CANCELLED" && orderRow(o.client_order_id as string),
      15_000,
      "cancelled order",
    );
    expect(row).toMatchObject({ symbol: "AAPL", side: "BUY" });
    const scenes = await f.db.engine.query<{ scene: string }>(
      "SELECT scene FROM brokerdesk.order_events WHERE client_order_id = $1 ORDER BY event_seq",
      [o.client_order_id],
    );
    expect(scenes.rows.map((r) => r.scene)).toContain("CANCEL_SUCCESS");
  });

  it("a filled order gets its execution, filled quantity, average price and commission", async () => {
    await setPrice(f.api, "KO", "60.00");
    const o = stock({ symbol: "KO", limit_price: "61.00", quantity: "3" });
    await place(f.api, ACCOUNTS.margin, [o]);
    const row = await until(
      async () => (await orderRow(o.client_order_id as string))?.status === "FILLED" && orderRow(o.client_order_id as string),
      20_000,
      "filled order",
    );
    expect(row.filled_quantity).toBe("3");
    expect(Number(row.avg_filled_price)).toBeGreaterThan(0);
    const ex = await f.db.engine.query<{ quantity: string }>(
      "SELECT quantity::text FROM brokerdesk.executions WHERE client_order_id = $1",
      [o.client_order_id],
    );
    expect(ex.rows.reduce((s, r) => s + Number(r.quantity), 0)).toBe(3);
  });

  it("a cash journal made at the sandbox appears as a completed movement", async () => {
    const id = rid("cj");
    const r = await f.api.op("createCashJournal", "resource", {
      body: { from_account: ACCOUNTS.margin, to_account: ACCOUNTS.cash, client_request_id: id, amount: "12.34", currency: "USD" },
    });
    expect(r.status).toBe(200);
    const m = await until(
      async () =>
        (
          await f.db.engine.query<Record<string, string>>(
            "SELECT status, amount::text, currency, from_account, to_account FROM brokerdesk.money_movements WHERE client_request_id = $1",
            [id],
          )
        ).rows[0],
      20_000,
      "journal",
    );
    expect(m).toMatchObject({
      status: "COMPLETED",
      amount: "12.34",
      currency: "USD",
      from_account: ACCOUNTS.margin,
      to_account: ACCOUNTS.cash,
    });
  });

  it("no event is stored twice, and a rebuild from the stored events gives the same read model", async () => {
    const dupes = await f.db.engine.query<{ n: string }>("SELECT count(*) - count(DISTINCT event_id) AS n FROM brokerdesk.upstream_events");
    expect(Number(dupes.rows[0].n)).toBe(0);
    const digest = async () =>
      (
        await f.db.engine.query<{ d: string }>(
          `SELECT md5(string_agg(concat_ws('|', account_id, client_order_id, status, filled_quantity, avg_filled_price, commission, order_id), ',' ORDER BY account_id, client_order_id))
         || md5(coalesce((SELECT string_agg(concat_ws('|', kind, client_request_id, status, amount), ',' ORDER BY kind, client_request_id) FROM brokerdesk.money_movements), ''))
         || (SELECT count(*) FROM brokerdesk.order_events) || '/' || (SELECT count(*) FROM brokerdesk.executions) AS d FROM brokerdesk.orders`,
        )
      ).rows[0].d;
    const before = await digest();
    expect(await rebuildReadModel(f.db.engine)).toBeGreaterThan(0);
    expect(await digest()).toBe(before);
  });
});

describe.each(engines)("desk submissions and detail calls in the read model ($name)", (te) => {
  let f: EventsFixture;
  beforeAll(async () => {
    f = await startEventsFixture(te);
    f.service();
    await f.jobs({ jobs: [JOBS.orderDetails] });
    await streamConnected(f);
  }, 60_000);
  afterAll(async () => f?.close());

  it("a movement recorded at submission is moved on by the upstream's event, keeps its requester, and survives a rebuild", async () => {
    const { recordDeskMovement } = await import("@/server/books/desk");
    const id = rid("dj");
    const fields = { from_account: ACCOUNTS.margin, to_account: ACCOUNTS.cash, amount: "5.00", currency: "USD" };
    await recordDeskMovement(f.db.engine, { kind: "CASH_JOURNAL", clientRequestId: id, requestedBy: "ops@brokerdesk.test", fields });
    await recordDeskMovement(f.db.engine, { kind: "CASH_JOURNAL", clientRequestId: id, requestedBy: "ops@brokerdesk.test", fields }); // a retry
    const row = async () =>
      (
        await f.db.engine.query<Record<string, string>>(
          "SELECT status, requested_by, amount::text FROM brokerdesk.money_movements WHERE client_request_id = $1",
          [id],
        )
      ).rows;
    expect(await row()).toEqual([{ status: "SUBMITTED", requested_by: "ops@brokerdesk.test", amount: "5.00" }]);
    await f.api.op("createCashJournal", "resource", { body: { ...fields, client_request_id: id } });
    await until(async () => (await row())[0]?.status === "COMPLETED", 20_000, "completed by the event");
    expect(await row()).toEqual([{ status: "COMPLETED", requested_by: "ops@brokerdesk.test", amount: "5.00" }]);
    await rebuildReadModel(f.db.engine);
    expect(await row()).toEqual([{ status: "COMPLETED", requested_by: "ops@brokerdesk.test", amount: "5.00" }]);
    const timeline = await f.db.engine.query<{ status: string }>(
      "SELECT status FROM brokerdesk.movement_events WHERE client_request_id = $1 ORDER BY event_seq",
      [id],
    );
    expect(timeline.rows.map((r) => r.status)).toEqual(["SUBMITTED", "COMPLETED"]);
  });

  it("an order's detail call completes what its events do not carry (limit price, time in force)", async () => {
    const o = stock({ symbol: "AAPL", limit_price: "2.00", quantity: "1", time_in_force: "GTC" });
    await place(f.api, ACCOUNTS.margin, [o]);
    await f.api.op("replaceOrder", "resource", {
      body: {
        account_id: ACCOUNTS.margin,
        modify_orders: [{ combo_type: "NORMAL", client_order_id: o.client_order_id, limit_price: "2.50" }],
      },
    });
    const row = async () =>
      (
        await f.db.engine.query<Record<string, string>>(
          "SELECT status, limit_price::text, time_in_force, detail_at IS NOT NULL AS detailed FROM brokerdesk.orders WHERE client_order_id = $1",
          [o.client_order_id],
        )
      ).rows[0];
    // A MODIFY_SUCCESS event carries no price: the order-details job's detail call brings the new one.
    await until(async () => (await row())?.limit_price === "2.50", 20_000, "the detail call");
    expect(await row()).toMatchObject({ status: "SUBMITTED", limit_price: "2.50", time_in_force: "GTC", detailed: true });
    const snapshots = await f.db.engine.query(
      "SELECT 1 FROM brokerdesk.upstream_events WHERE source = 'snapshot' AND payload->>'client_order_id' = $1",
      [o.client_order_id],
    );
    expect(snapshots.rows.length).toBeGreaterThanOrEqual(1);
  });

  it("a reconciliation fixes a movement whose final event was missed, and counts it", async () => {
    const { recordDeskMovement } = await import("@/server/books/desk");
    const { reconcile } = await import("@/server/events/sync");
    const id = rid("rc");
    const fields = { account_id: ACCOUNTS.margin, type: "DEPOSIT", amount: "3.00", currency: "USD" };
    // Silenced: the upstream's COMPLETED event is not heard while the reconciliation runs.
    await f.api.call("POST", "/sandbox/events/silence", { body: { silent: true } });
    try {
      await recordDeskMovement(f.db.engine, { kind: "INSTANT_FUNDING", clientRequestId: id, requestedBy: "ops@brokerdesk.test", fields });
      await f.api.op("createInstantFunding", "resource", { body: { ...fields, client_request_id: id } });
      const run = await reconcile({ engine: f.db.engine, client: f.client }, { afterMs: 0 });
      expect(run.fixed).toBeGreaterThanOrEqual(1);
      const m = await f.db.engine.query<{ status: string }>("SELECT status FROM brokerdesk.money_movements WHERE client_request_id = $1", [
        id,
      ]);
      expect(m.rows[0].status).toBe("COMPLETED");
    } finally {
      await f.api.call("POST", "/sandbox/events/silence", { body: { silent: false } });
    }
  });
});
