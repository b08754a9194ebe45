import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cancelOrderAction, replaceOrderAction } from "@/server/actions/orders";
import { listAudit } from "@/server/audit/list";
import { setBrokerForTests, type BrokerClient } from "@/server/broker";
import { setDbForTests } from "@/server/db";
import { applyOrderSnapshot } from "@/server/books/snapshots";
import { testEngines } from "../helpers/engines";
import { startEventsFixture, until, type EventsFixture } from "../events/helpers";
import { ACCOUNTS, order, place, setPrice, stock } from "../sandbox/trading-helpers";

/**
 * Replace and cancel through their server actions against a started sandbox, with the event consumer feeding the
 * read model: refused with nothing sent when the order is no longer open upstream, a reason required, audited,
 * and the outcome (MODIFY_SUCCESS / CANCEL_SUCCESS) arriving in the order's timeline.
 */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("@/server/auth/request-meta", () => ({ requestMeta: async () => ({ clientIp: "10.0.0.7", userAgent: "vitest" }) }));

const SUPPORT = { id: "00000000-0000-4000-8000-000000000002", email: "support@example.test", name: "Support", role: "support" };
const account = ACCOUNTS.margin;

for (const engine of testEngines()) {
  describe(`replace and cancel on ${engine.name}`, () => {
    let f: EventsFixture;
    const sent: string[] = [];

    beforeAll(async () => {
      f = await startEventsFixture(engine);
      setDbForTests(f.db);
      // Counts what is sent upstream: "nothing sent" is checked here and in the sandbox.
      setBrokerForTests(
        new Proxy(f.client, {
          get(target, prop, receiver) {
            const v = Reflect.get(target, prop, receiver);
            return typeof v === "function" ? (...args: unknown[]) => (sent.push(String(prop)), v.apply(target, args)) : v;
          },
        }) as BrokerClient,
      );
      f.consumer();
      await setPrice(f.api, "AAPL", "100.00");
    }, 120_000);
    afterAll(async () => {
      setBrokerForTests(undefined);
      setDbForTests(undefined);
      await f?.close();
    });
    beforeEach(() => {
      session.staff = SUPPORT;
      sent.length = 0;
    });

    /** Places an order at the sandbox and records it in the read model as the consumer's detail call would. */
    async function deskOrder(o: Record<string, unknown>): Promise<{ id: string; coid: string }> {
      const leg = stock(o);
      const r = await place(f.api, account, [leg]);
      expect(r.status).toBe(200);
      const group = await f.client.getOrder({ account_id: account, client_order_id: leg.client_order_id as string });
      const { rows } = await f.db.engine.query<{ s: string }>(
        "SELECT last_event_seq::text AS s FROM brokerdesk.orders WHERE client_order_id = $1",
        [leg.client_order_id],
      );
      await applyOrderSnapshot(f.db.engine, account, group.orders[0] as never, rows[0] ? Number(rows[0].s) : undefined);
      const id = await until(
        async () =>
          (
            await f.db.engine.query<{ id: string }>("SELECT id::text FROM brokerdesk.orders WHERE client_order_id = $1", [
              leg.client_order_id,
            ])
          ).rows[0]?.id,
      );
      return { id, coid: leg.client_order_id as string };
    }
    const scenes = async (coid: string) =>
      (
        await f.db.engine.query<{ scene: string }>(
          "SELECT scene FROM brokerdesk.order_events WHERE client_order_id = $1 ORDER BY event_seq",
          [coid],
        )
      ).rows.map((r) => r.scene);

    it("cancels an open order with a reason: audited, and CANCEL_SUCCESS arrives", async () => {
      const o = await deskOrder({ limit_price: "50.00" });
      const result = await cancelOrderAction({ orderId: o.id, reasonCode: "CUSTOMER_REQUEST" });
      expect(result).toMatchObject({ ok: true, data: { statusBefore: "SUBMITTED" } });
      expect(sent).toEqual(["getOrder", "cancelOrder"]);
      expect((await order(f.api, account, o.coid)).status).toBe("CANCELLED");
      await until(async () => (await scenes(o.coid)).includes("CANCEL_SUCCESS"), 20_000, "CANCEL_SUCCESS");
      const [entry] = (await listAudit(f.db.engine, { action: "orders.cancel" })).rows;
      expect(entry).toMatchObject({
        outcome: "success",
        target: `order:${account}:${o.coid}`,
        actorEmail: SUPPORT.email,
        input: { orderId: o.id, reasonCode: "CUSTOMER_REQUEST" },
      });
      expect(entry.upstreamRequestId).toBeTruthy();
    });

    it("replaces the limit price with combo_type and a reason; MODIFY_SUCCESS arrives", async () => {
      const o = await deskOrder({ limit_price: "50.00" });
      const result = await replaceOrderAction({ orderId: o.id, limitPrice: "51.25", reasonCode: "WRONG_PRICE_OR_QUANTITY" });
      expect(result).toMatchObject({ ok: true });
      expect(sent).toEqual(["getOrder", "replaceOrder"]);
      expect((await order(f.api, account, o.coid)).limit_price).toMatch(/^51\.25/);
      await until(async () => (await scenes(o.coid)).includes("MODIFY_SUCCESS"), 20_000, "MODIFY_SUCCESS");
      const entries = (await listAudit(f.db.engine, { action: "orders.replace" })).rows;
      expect(entries[0]).toMatchObject({ outcome: "success", input: { limitPrice: "51.25", reasonCode: "WRONG_PRICE_OR_QUANTITY" } });
    });

    it("a replace with the order's current values is refused with nothing sent (prices compared by value)", async () => {
      const o = await deskOrder({ limit_price: "50.00" });
      const same = await replaceOrderAction({ orderId: o.id, limitPrice: "50", reasonCode: "WRONG_PRICE_OR_QUANTITY" });
      expect(same).toMatchObject({
        ok: false,
        code: "NOTHING_TO_CHANGE",
        serverError: "These are the order's current values: change at least one. Nothing was sent.",
      });
      expect(sent).toEqual(["getOrder"]);
      expect((await order(f.api, account, o.coid)).limit_price).toMatch(/^50(\.0+)?$/);
    });

    it("refuses to cancel or replace a filled order, with nothing sent", async () => {
      const o = await deskOrder({ limit_price: "150.00" }); // marketable: fills at once
      expect((await order(f.api, account, o.coid)).status).toBe("FILLED");
      const cancel = await cancelOrderAction({ orderId: o.id, reasonCode: "DUPLICATE" });
      expect(cancel).toMatchObject({ ok: false, code: "ORDER_NOT_OPEN", serverError: expect.stringContaining("Nothing was sent") });
      const replace = await replaceOrderAction({ orderId: o.id, quantity: "5", reasonCode: "CUSTOMER_REQUEST" });
      expect(replace).toMatchObject({ ok: false, code: "ORDER_NOT_OPEN" });
      expect(sent).toEqual(["getOrder", "getOrder"]);
      expect((await order(f.api, account, o.coid)).status).toBe("FILLED");
      expect((await scenes(o.coid)).filter((s) => s.startsWith("CANCEL") || s.startsWith("MODIFY"))).toEqual([]);
      const [entry] = (await listAudit(f.db.engine, { action: "orders.cancel" })).rows;
      expect(entry).toMatchObject({ outcome: "failure", errorCode: "ORDER_NOT_OPEN", input: { reasonCode: "DUPLICATE" } });
    });

    it("requires a reason (and its text for Other); compliance is refused", async () => {
      const o = await deskOrder({ limit_price: "50.00" });
      expect(await cancelOrderAction({ orderId: o.id } as never)).toMatchObject({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { reasonCode: "Choose a reason" },
      });
      expect(await cancelOrderAction({ orderId: o.id, reasonCode: "OTHER", reasonText: "" })).toMatchObject({
        ok: false,
        code: "VALIDATION",
        fieldErrors: { reasonText: expect.any(String) },
      });
      session.staff = { ...SUPPORT, email: "compliance@example.test", role: "compliance" };
      expect(await cancelOrderAction({ orderId: o.id, reasonCode: "RISK" })).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(await replaceOrderAction({ orderId: o.id, limitPrice: "1", reasonCode: "RISK" })).toMatchObject({
        ok: false,
        code: "FORBIDDEN",
      });
      expect(sent).toEqual([]);
      expect((await order(f.api, account, o.coid)).status).toBe("SUBMITTED");
      const denied = (await listAudit(f.db.engine, { action: "orders.cancel", outcome: "denied" })).rows;
      expect(denied[0]).toMatchObject({ actorEmail: "compliance@example.test", errorCode: "FORBIDDEN" });
    });
  });
}
