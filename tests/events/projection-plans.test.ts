import { describe, expect, it } from "vitest";
import { interpret } from "@/server/books/changes";
import { lockReadModel } from "@/server/books/queries/ingest";
import { project } from "@/server/books/queries/project";
import type { AppDb } from "@/server/db";
import { testEngines, withEngineDb } from "../helpers/engines";

/**
 * A batch's projection looks its orders and their executions up by key, whatever the books hold: no statement reads
 * a whole table. Left to the planner, a batch's keys (a jsonb recordset, taken for 100 rows) against a few thousand
 * stored orders were joined by hashing every order, or every execution, each batch.
 */
const fill = (order: number, n: number) =>
  JSON.stringify({
    id: `p-${order}-${n}`,
    event_type: "TRADE",
    timestamp: "2026-11-17T15:00:00.000Z",
    payload: {
      biz_type: "TRADE",
      scene_type: "FILLED",
      account_id: `A${order % 16}`,
      client_order_id: `c${order}`,
      order_id: `o${order}`,
      symbol: "KO",
      category: "US_STOCK",
      side: "BUY",
      order_type: "LIMIT",
      qty: "10",
      order_status: "PARTIAL_FILLED",
      filled_qty: "1",
      filled_price: "60.5",
      filled_time: `2026-11-17T15:00:0${n}.000+0000`,
    },
  });

describe.each(testEngines())("a batch's projection against stored books ($name)", (te) => {
  const db = {} as AppDb;
  withEngineDb(te, async (fresh) => {
    Object.assign(db, fresh);
    // 4,000 working orders with five fills each, as the books hold them after a busy hour; statistics up to date.
    await db.engine.query(
      `INSERT INTO brokerdesk.orders (account_id, client_order_id, order_id, symbol, side, order_type, quantity, status,
                                      filled_quantity, updated_at, last_event_seq)
       SELECT 'A' || (i % 16), 'c' || i, 'o' || i, 'KO', 'BUY', 'LIMIT', 10, 'PARTIAL_FILLED', 5, now(), i FROM generate_series(1, 4000) AS i`,
    );
    await db.engine.query(
      `INSERT INTO brokerdesk.executions (execution_key, event_seq, account_id, client_order_id, order_id, symbol, side, quantity, price, filled_at)
       SELECT 'x' || i || '-' || n, i, 'A' || (i % 16), 'c' || i, 'o' || i, 'KO', 'BUY', 1, 60, now()
         FROM generate_series(1, 4000) AS i, generate_series(1, 5) AS n`,
    );
    await db.engine.exec("ANALYZE brokerdesk.orders; ANALYZE brokerdesk.executions");
  });

  it("reads no whole table: a hundred orders' fills by their keys", async () => {
    const batch = Array.from({ length: 100 }, (_, k) => interpret(JSON.parse(fill(1000 + k * 7, 6))).changes[0]).map((change, k) => ({
      seq: 10_000 + k,
      change,
    }));
    const scans = await db.engine.transaction(async (tx) => {
      // The backend's counts not yet reported: read before and after, the difference is the projection's.
      const counts = async () =>
        (
          await tx.query<{ relname: string; seq_scan: number }>(
            "SELECT relname, seq_scan::int AS seq_scan FROM pg_stat_xact_user_tables WHERE schemaname = 'brokerdesk' AND relname IN ('orders', 'executions') ORDER BY relname",
          )
        ).rows;
      await lockReadModel(tx);
      const before = await counts();
      await project(tx, batch);
      return (await counts()).map((r, i) => ({ relname: r.relname, seq_scan: r.seq_scan - before[i].seq_scan }));
    });
    expect(scans).toEqual([
      { relname: "executions", seq_scan: 0 },
      { relname: "orders", seq_scan: 0 },
    ]);
    // And the fills were applied: six fills of c1000 now (five stored, one new).
    const { rows } = await db.engine.query<{ f: string }>(
      "SELECT filled_quantity::text AS f FROM brokerdesk.orders WHERE client_order_id = 'c1000'",
    );
    expect(rows).toEqual([{ f: "6" }]);
  });
});
