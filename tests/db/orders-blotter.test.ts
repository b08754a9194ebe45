import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderFilter, OrderRow } from "@/lib/schemas/order-list";
import { prepareAppDb, type AppDb } from "@/server/db";
import { rememberAccountNumbers, resolveAccount } from "@/server/accounts/directory";
import { listOrders, ORDER_CSV_COLUMNS, orderChangesSince, orderCsvRows, orderWatermark } from "@/server/orders/queries/blotter";
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

    it("finds an account by its number typed in any case, the blotter and the directory alike", async () => {
      await rememberAccountNumbers(db.engine, [
        { account_id: "SYN-ACC-1", account_number: "VBD1000030" },
        // A number with letters of both cases (an external number typed so): as typed or in any other case.
        { account_id: "SYN-ACC-2", account_number: "VBDab12" },
      ]);
      const byId = ids(await walk(db, { account: "SYN-ACC-1" }));
      expect(byId.length).toBeGreaterThan(0);
      for (const account of ["VBD1000030", "vbd1000030", "Vbd1000030"]) {
        expect(ids(await walk(db, { account })), account).toEqual(byId);
        expect(await resolveAccount(db.engine, account)).toEqual({ accountId: "SYN-ACC-1", accountNumber: "VBD1000030" });
      }
      const second = ids(await walk(db, { account: "SYN-ACC-2" }));
      for (const account of ["VBDab12", "vbdab12", "VBDAB12"]) {
        expect(ids(await walk(db, { account })), account).toEqual(second);
        expect((await resolveAccount(db.engine, account)).accountId).toBe("SYN-ACC-2");
      }
      // The live changes read the same condition.
      const mark = await orderWatermark(db.engine);
      await db.engine.query("UPDATE brokerdesk.orders SET last_event_seq = $1 WHERE client_order_id = 'SYN1'", [mark + 1]);
      expect((await orderChangesSince(db.engine, { account: "vbd1000030" }, mark)).rows.map((r) => [r.clientOrderId, r.matches])).toEqual([
        ["SYN1", true],
      ]);
      // A value the directory does not know is still an account id, compared exactly.
      expect(ids(await walk(db, { account: "syn-acc-1" }))).toEqual([]);
    });

    it("reads a cursor edited by hand, its shape kept but its time one PostgreSQL refuses, as the first page", async () => {
      const first = await listOrders(db.engine, {}, { limit: 5 });
      const [tag, , id] = JSON.parse(Buffer.from(first.nextCursor!, "base64url").toString("utf8")) as [string, string, string];
      const edited = Buffer.from(JSON.stringify([tag, "0000-01-01T00:00:00.000Z", id])).toString("base64url");
      expect((await listOrders(db.engine, {}, { cursor: edited, limit: 5 })).rows).toEqual(first.rows);
    });

    it("exports a cash-amount order's amount beside its (empty) quantity", async () => {
      await db.engine.query(
        `INSERT INTO brokerdesk.orders (account_id, client_order_id, symbol, market, side, order_type, entrust_type, quantity, total_cash_amount,
           status, updated_at, last_event_seq)
         VALUES ('acc-cash', 'CASH1', 'AAPL', 'US', 'BUY', 'MARKET', 'AMOUNT', NULL, 1234.567, 'SUBMITTED', now(), 1)`,
      );
      const rows: (string | number | null)[][] = [];
      for await (const r of orderCsvRows(db.engine, { account: "acc-cash" })) rows.push(r);
      expect(rows).toHaveLength(1);
      const cell = (name: string) => rows[0][ORDER_CSV_COLUMNS.indexOf(name)];
      expect(ORDER_CSV_COLUMNS.indexOf("Cash amount")).toBe(ORDER_CSV_COLUMNS.indexOf("Quantity") + 1);
      expect(rows[0]).toHaveLength(ORDER_CSV_COLUMNS.length);
      expect([cell("Client order id"), cell("Quantity"), cell("Cash amount"), cell("Currency")]).toEqual([
        "CASH1",
        null,
        "1234.567",
        "USD",
      ]);
      // An order by quantity has no cash amount.
      const [byQuantity] = (await listOrders(db.engine, { account: "SYN-ACC-1" }, { limit: 1 })).rows;
      for await (const r of orderCsvRows(db.engine, { account: "SYN-ACC-1" })) {
        if (r[ORDER_CSV_COLUMNS.indexOf("Client order id")] !== byQuantity.clientOrderId) continue;
        expect([r[ORDER_CSV_COLUMNS.indexOf("Quantity")], r[ORDER_CSV_COLUMNS.indexOf("Cash amount")]]).toEqual([
          byQuantity.quantity,
          null,
        ]);
      }
    });
  });
}

function byN(a: string, b: string) {
  return Number(b.slice(3)) - Number(a.slice(3));
}
