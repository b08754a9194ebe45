import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines, seedAccountId, startFixture, type Fixture } from "./fixture";

/**
 * The seed's trading history (issue 25 item 7): orders in every state with their executions and TRADE events, as
 * the order engine would have left them, listed by the Broker API's order calls; the option chains priced so that a
 * call is cheaper the higher its strike and a put dearer; the same content after a reset.
 */
describe.each(engines)("the seeded trading history on $name", (te) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await startFixture(te);
  }, 60_000);
  afterAll(() => f?.close());

  const orders = async () =>
    (
      await f.sb.engine.query<{
        client_order_id: string;
        account_id: string;
        status: string;
        market: string;
        instrument_type: string;
        filled: string;
        executed: string | null;
        n: number;
      }>(
        `SELECT o.client_order_id, o.account_id, o.status, o.market, o.instrument_type, o.filled_quantity::text AS filled,
                (SELECT sum(quantity)::text FROM sandbox.executions e WHERE e.order_id = o.order_id) AS executed,
                (SELECT count(*)::int FROM sandbox.executions e WHERE e.order_id = o.order_id) AS n
           FROM sandbox.orders o ORDER BY o.client_order_id`,
      )
    ).rows;

  it("holds orders in every state across accounts and markets, each fill an execution", async () => {
    const rows = await orders();
    const statuses = new Set(rows.map((r) => r.status));
    for (const s of ["SUBMITTED", "PARTIAL_FILLED", "FILLED", "CANCELLED", "FAILED"]) expect(statuses, s).toContain(s);
    expect(new Set(rows.map((r) => r.market))).toEqual(new Set(["US", "HK", "CN"]));
    expect(rows.some((r) => r.instrument_type === "OPTION")).toBe(true);
    expect(new Set(rows.map((r) => r.account_id)).size).toBeGreaterThanOrEqual(8);
    // Filled in one execution or more; the executions add up to the order's filled quantity.
    expect(rows.some((r) => r.status === "FILLED" && r.n > 1)).toBe(true);
    for (const r of rows.filter((x) => x.status === "FILLED" || x.status === "PARTIAL_FILLED")) {
      expect(Number(r.executed), r.client_order_id).toBe(Number(r.filled));
    }
    // A replace and the ends are in the event outbox, as the engine writes them.
    const { rows: scenes } = await f.sb.engine.query<{ scene: string }>(
      "SELECT DISTINCT payload->>'scene_type' AS scene FROM sandbox.events WHERE event_type = 'TRADE'",
    );
    expect(scenes.map((s) => s.scene).sort()).toEqual(["CANCEL_SUCCESS", "FILLED", "FINAL_FILLED", "MODIFY_SUCCESS", "PLACE_FAILED"]);
  });

  it("lists them through the order calls the desk's backfill makes: history and open orders", async () => {
    const account = seedAccountId(33);
    const start = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const history = await f.api.op("listOrderHistory", "resource", { query: { account_id: account, start_date: start, page_size: 100 } });
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    const open = await f.api.op("listOpenOrders", "resource", { query: { account_id: account, page_size: 100 } });
    const statuses = (b: { data: { orders: { status: string }[] }[] }) => b.data.flatMap((g) => g.orders.map((o) => o.status));
    expect(statuses(history.body)).toContain("FILLED");
    expect(statuses(open.body)).toEqual(["PARTIAL_FILLED"]);
  });

  it("prices each option chain by its strikes: calls fall and puts rise as the strike rises", async () => {
    const { rows } = await f.sb.engine.query<{ root: string; expiry: string; type: string; prices: string[] }>(
      `SELECT root_symbol AS root, expiration_date::text AS expiry, option_type AS type, array_agg(last_price::text ORDER BY strike_price) AS prices
         FROM sandbox.option_contracts GROUP BY 1, 2, 3`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(4 * 2 * 2);
    for (const r of rows) {
      const p = r.prices.map(Number);
      for (let i = 1; i < p.length; i += 1) {
        if (r.type === "CALL") expect(p[i], `${r.root} ${r.expiry} calls ${p}`).toBeLessThan(p[i - 1]);
        else expect(p[i], `${r.root} ${r.expiry} puts ${p}`).toBeGreaterThan(p[i - 1]);
      }
    }
  });

  it("is the same after a reset", async () => {
    const before = await orders();
    expect((await f.api.call("POST", "/sandbox/reset")).body).toEqual({ reset: true });
    expect(await orders()).toEqual(before);
  });
});
