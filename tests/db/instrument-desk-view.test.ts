import { describe, expect, it } from "vitest";
import { roleAccess } from "../helpers/staff";
import { type AppDb } from "@/server/db";
import { deskView } from "@/server/instruments/desk-view";
import { testEngines } from "../helpers/engines";
import { useSeededDb } from "../helpers/seeded-db";

/**
 * The instrument page's view from the books: only rows of the asked symbol (and its options, under the underlying)
 * in the asked market, open orders only, accounts named by number, each part only for a role that may read it.
 */
const AAPL_CALL = "AAPL260116C00150000";

async function seed(db: AppDb) {
  const q = (sql: string, params: unknown[] = []) => db.engine.query(sql, params);
  await q(`INSERT INTO brokerdesk.account_directory (account_id, account_number) VALUES ('acc-a', 'VA-1001'), ('acc-b', 'VA-1002')`);
  const order = (id: number, account: string, coid: string, symbol: string, market: string, status: string) =>
    q(
      `INSERT INTO brokerdesk.orders (id, account_id, client_order_id, symbol, market, side, order_type, quantity, limit_price, status,
                                      placed_at, updated_at, last_event_seq)
       VALUES ($1, $2, $3, $4, $5, 'BUY', 'LIMIT', 10, 150.25, $6, now() - make_interval(mins => $7), now(), $1)`,
      [id, account, coid, symbol, market, status, id],
    );
  await order(1, "acc-a", "o-aapl-open", "AAPL", "US", "SUBMITTED");
  await order(2, "acc-b", "o-aapl-partial", "AAPL", "US", "PARTIAL_FILLED");
  await order(3, "acc-a", "o-aapl-filled", "AAPL", "US", "FILLED");
  await order(4, "acc-a", "o-msft-open", "MSFT", "US", "SUBMITTED");
  await order(5, "acc-b", "o-aapl-call", AAPL_CALL, "US", "PENDING");
  await order(6, "acc-a", "o-aaplx-open", "AAPLX", "US", "SUBMITTED");
  await order(7, "acc-z", "o-aapl-unknown-account", "AAPL", "US", "SUBMITTED");
  const exec = (key: string, account: string, coid: string, symbol: string, minutesAgo: number) =>
    q(
      `INSERT INTO brokerdesk.executions (execution_key, event_seq, account_id, client_order_id, symbol, side, quantity, price, filled_at)
       VALUES ($1, 1, $2, $3, $4, 'BUY', 5, 150.10, now() - make_interval(mins => $5))`,
      [key, account, coid, symbol, minutesAgo],
    );
  await exec("x1", "acc-a", "o-aapl-filled", "AAPL", 3);
  await exec("x2", "acc-b", "o-aapl-partial", "AAPL", 1);
  await exec("x3", "acc-a", "o-msft-open", "MSFT", 2);
  const activity = (account: string, id: string, symbol: string, qty: string) =>
    q(
      `INSERT INTO brokerdesk.activities (account_id, id, activity_type, currency, market, symbol, quantity, net_amount, biz_time)
       VALUES ($1, $2, 'TRADE', 'USD', 'US', $3, $4, 0, now())`,
      [account, id, symbol, qty],
    );
  await activity("acc-a", "a1", "AAPL", "100");
  await activity("acc-a", "a2", "AAPL", "-40");
  await activity("acc-b", "a3", "AAPL", "10");
  await activity("acc-b", "a4", "AAPL", "-10");
  await activity("acc-b", "a5", "MSFT", "7");
  await q(`INSERT INTO brokerdesk.activity_sweeps (account_id, swept_until) VALUES ('acc-a', '2026-11-20T10:00:00Z')`);
  const rule = (await q(`SELECT id FROM brokerdesk.surveillance_rules ORDER BY id LIMIT 1`)).rows[0] as { id: string };
  const alert = (subject: string, account: string, orders: unknown[], movements: unknown[]) =>
    q(
      `INSERT INTO brokerdesk.alerts (rule_id, subject, account_id, summary, orders, movements, occurred_at)
       VALUES ($1, $2, $3, $2, $4::jsonb, $5::jsonb, now())`,
      [rule.id, subject, account, JSON.stringify(orders), JSON.stringify(movements)],
    );
  await alert("option order", "acc-b", [{ id: "5", client_order_id: "o-aapl-call", symbol: AAPL_CALL }], []);
  await alert("position journal", "acc-a", [], [{ kind: "POSITION_JOURNAL", client_request_id: "j1", symbol: "AAPL", quantity: "5" }]);
  await alert("other symbol", "acc-a", [{ id: "4", client_order_id: "o-msft-open", symbol: "MSFT" }], []);
}

for (const engine of testEngines()) {
  describe(`instrument desk view on ${engine.name}`, () => {
    const db = useSeededDb(engine, seed);

    it("lists the symbol's open orders and its options', newest first, accounts by number", async () => {
      const v = await deskView(db.engine, roleAccess("compliance"), "US", "AAPL");
      expect(v.orders?.map((o) => o.clientOrderId)).toEqual(["o-aapl-open", "o-aapl-partial", "o-aapl-call", "o-aapl-unknown-account"]);
      expect(v.orders?.map((o) => o.accountNumber)).toEqual(["VA-1001", "VA-1002", "VA-1002", null]);
      expect(v.orders?.[0]).toMatchObject({ accountId: "acc-a", limitPrice: "150.25", status: "SUBMITTED" });
    });

    it("lists executions of the symbol only, each with its order, newest first", async () => {
      const v = await deskView(db.engine, roleAccess("operations"), "US", "AAPL");
      expect(v.executions?.map((e) => [e.accountNumber, e.symbol])).toEqual([
        ["VA-1002", "AAPL"],
        ["VA-1001", "AAPL"],
      ]);
      expect(v.executions?.[1].orderId).toBe("3");
    });

    it("nets positions per account from the activities read, leaving accounts at zero out", async () => {
      const v = await deskView(db.engine, roleAccess("operations"), "US", "AAPL");
      expect(v.positions).toEqual([{ accountId: "acc-a", accountNumber: "VA-1001", quantity: "60", asOf: "2026-11-20T10:00:00.000Z" }]);
    });

    it("lists alerts whose orders or movements are in the symbol or its options", async () => {
      const v = await deskView(db.engine, roleAccess("compliance"), "US", "AAPL");
      expect(v.alerts?.map((a) => [a.summary, a.accountNumber])).toEqual([
        ["position journal", "VA-1001"],
        ["option order", "VA-1002"],
      ]);
    });

    it("reads nothing of another market, and only the parts a role may read", async () => {
      const hk = await deskView(db.engine, roleAccess("admin"), "HK", "AAPL");
      expect(hk.orders).toEqual([]);
      expect(hk.executions).toEqual([]);
      const support = await deskView(db.engine, roleAccess("support"), "US", "AAPL");
      expect(support.orders?.length).toBe(4);
      expect(support.positions).toBeUndefined();
      expect(support.alerts).toBeUndefined();
    });
  });
}
