import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderFilter, OrderRow } from "@/lib/schemas/order-list";
import { prepareAppDb, type AppDb } from "@/server/db";
import { listOrders, orderChangesSince, orderWatermark } from "@/server/orders/queries/blotter";
import { insertSyntheticOrders, SYNTHETIC_STATUSES, SYNTHETIC_SYMBOLS } from "@/server/orders/queries/synthetic";
import { testEngines } from "../helpers/engines";

/** Every page of a filter, as the blotter reads them while scrolling. */
async function walk(db: AppDb, filter: OrderFilter, limit = 7): Promise<OrderRow[][]> {
  const pages: OrderRow[][] = [];
  let cursor: string | undefined;
  do {
    const page = await listOrders(db.engine, filter, { cursor, limit });
    pages.push(page.rows);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 100);
  return pages;
}

const N = 60;
// Row n (see synthetic.ts): status SYNTHETIC_STATUSES[n % 6], symbol SYNTHETIC_SYMBOLS[n % 8], account SYN-ACC-(n % 4).
const expected = (pred: (n: number) => boolean) =>
  Array.from({ length: N }, (_, i) => N - i)
    .filter(pred)
    .map((n) => `SYN${n}`);
const ids = (pages: OrderRow[][]) => pages.flat().map((r) => r.clientOrderId);

for (const engine of testEngines()) {
  describe(`orders blotter on ${engine.name}`, () => {
    let db: AppDb;
    let close: () => Promise<void>;
    const now = new Date();
    const start = new Date(now.getTime() - 2 * 86_400_000); // two days ago, one second apart

    beforeAll(async () => {
      const opened = await engine.open();
      close = opened.close;
      db = await prepareAppDb(opened.engine);
      await insertSyntheticOrders(db.engine, { count: N, accounts: 4, start, seqBase: 1000 });
      // Ties on listed_at: the id breaks them and no row is repeated or skipped across pages.
      await db.engine.query("UPDATE brokerdesk.orders SET placed_at = $1 WHERE client_order_id IN ('SYN10', 'SYN11', 'SYN12', 'SYN13')", [
        new Date(start.getTime() + 10_000),
      ]);
    });
    afterAll(() => close());

    it("pages newest first by keyset, each row exactly once, with ties broken by id", async () => {
      const pages = await walk(db, {});
      expect(pages.length).toBe(Math.ceil(N / 7));
      const all = ids(pages);
      expect(new Set(all).size).toBe(N);
      expect(all.slice(0, 3)).toEqual(["SYN60", "SYN59", "SYN58"]);
      const listed = pages.flat().map((r) => r.listedAt);
      expect([...listed].sort().reverse()).toEqual(listed);
    });

    it("filters by account, symbol, side, status, market and time in force, across pages", async () => {
      expect(ids(await walk(db, { account: "SYN-ACC-1", symbol: SYNTHETIC_SYMBOLS[1] }))).toEqual(
        expected((n) => n % 4 === 1 && n % 8 === 1).sort(byN),
      );
      expect(ids(await walk(db, { side: "BUY", status: "FILLED" }, 3))).toEqual(
        expected((n) => n % 2 === 1 && SYNTHETIC_STATUSES[n % 6] === "FILLED"),
      );
      expect(ids(await walk(db, { market: "HK" }))).toEqual(expected((n) => n % 8 === 5));
      expect(ids(await walk(db, { tif: "GTC", type: "EQUITY", orderType: "LIMIT", combo: "NORMAL" }))).toEqual(
        expected((n) => n % 3 === 0),
      );
      expect(ids(await walk(db, { status: "NOT_A_STATUS" }))).toEqual([]);
    });

    it("quick views: open, working today, filled today, rejected or failed", async () => {
      const open = (n: number) => ["SUBMITTED", "PARTIAL_FILLED", "PENDING"].includes(SYNTHETIC_STATUSES[n % 6]);
      expect(ids(await walk(db, { view: "open" }))).toEqual(expected(open));
      expect(ids(await walk(db, { view: "failed" }))).toEqual(expected((n) => n % 6 === 4));
      // Move three orders to today: only they are "today".
      const today = new Date();
      await db.engine.query(
        "UPDATE brokerdesk.orders SET placed_at = $1, filled_at = CASE WHEN status = 'FILLED' THEN $1::timestamptz ELSE filled_at END WHERE client_order_id IN ('SYN1', 'SYN2', 'SYN3')",
        [today],
      );
      const todayRows = ids(await walk(db, { view: "working_today" }));
      expect(todayRows.sort()).toEqual(["SYN3"]); // SYN1 FILLED, SYN2 CANCELLED, SYN3 PARTIAL_FILLED
      expect(ids(await walk(db, { view: "filled_today" }))).toEqual(["SYN1"]);
      const day = today.toISOString().slice(0, 10);
      expect(ids(await walk(db, { from: day, to: day })).sort()).toEqual(["SYN1", "SYN2", "SYN3"]);
    });

    it("tells the rows changed after a watermark, matching the filter or not", async () => {
      const mark = await orderWatermark(db.engine);
      expect(mark).toBe(1000 + N);
      expect((await orderChangesSince(db.engine, {}, mark)).rows).toEqual([]);
      await db.engine.query("UPDATE brokerdesk.orders SET status = 'CANCELLED', last_event_seq = $1 WHERE client_order_id = 'SYN5'", [
        mark + 1,
      ]);
      // SYN66: a new open order (66 % 6 = 0: SUBMITTED).
      await insertSyntheticOrders(db.engine, { count: 1, offset: 65, accounts: 4, start: new Date(), seqBase: mark + 2 - 66 });
      const changes = await orderChangesSince(db.engine, { view: "open" }, mark);
      expect(changes.rows.map((r) => [r.clientOrderId, r.status, r.matches])).toEqual([
        ["SYN5", "CANCELLED", false],
        ["SYN66", "SUBMITTED", true],
      ]);
      expect(changes.watermark).toBe(mark + 2);
      const first = await listOrders(db.engine, {}, { limit: 5 });
      expect(first.watermark).toBe(mark + 2);
      expect(first.rows[0].clientOrderId).toBe("SYN66");
    });
  });
}

function byN(a: string, b: string) {
  return Number(b.slice(3)) - Number(a.slice(3));
}
