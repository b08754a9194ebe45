import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Decimal from "decimal.js";
import { csvLine } from "@/lib/csv";
import type { ActivityFilter, ActivityRow } from "@/lib/schemas/activity-list";
import { activityCsvRows, activitySummary, chartRange, listActivityPage } from "@/server/activities/explorer";
import { insertSyntheticActivities, SYNTHETIC_ACTIVITY_TYPES } from "@/server/activities/queries/synthetic";
import { prepareAppDb, type AppDb } from "@/server/db";
import { testEngines } from "../helpers/engines";

const N = 120;
const ACCOUNTS = 4;
// Row n, as synthetic.ts writes it.
const row = (n: number) => ({
  n,
  id: `SYNACT${n}`,
  account: `SYN-ACT-${n % ACCOUNTS}`,
  type: SYNTHETIC_ACTIVITY_TYPES[n % 5],
  currency: n % 7 === 0 ? "HKD" : "USD",
  symbol: n % 5 === 2 ? "AAPL" : null,
  net: n % 5 === 1 || n % 5 === 3 ? -n : n,
});
const ALL = Array.from({ length: N }, (_, i) => row(N - i)); // newest first

async function walk(db: AppDb, filter: ActivityFilter, limit = 9): Promise<ActivityRow[]> {
  const rows: ActivityRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await listActivityPage(db.engine, filter, { cursor, limit });
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor && rows.length <= 10 * N);
  return rows;
}

for (const engine of testEngines()) {
  describe(`activities explorer on ${engine.name}`, () => {
    let db: AppDb;
    let close: () => Promise<void>;
    // Row n happens at start + n seconds: rows 1–120 on 2026-03-01 (UTC), a few minutes after midnight.
    const start = new Date("2026-03-01T00:00:00.000Z");

    beforeAll(async () => {
      const opened = await engine.open();
      close = opened.close;
      db = await prepareAppDb(opened.engine);
      await insertSyntheticActivities(db.engine, { count: N, accounts: ACCOUNTS, start });
      // Ties on biz_time across accounts: the tiebreak keeps each row once across pages.
      await db.engine.query(
        "UPDATE brokerdesk.activities SET biz_time = $1 WHERE id IN ('SYNACT50', 'SYNACT51', 'SYNACT52', 'SYNACT53', 'SYNACT54')",
        [new Date(start.getTime() + 50_000)],
      );
      // The day after: 10 more rows, so a date range has something to leave out.
      await insertSyntheticActivities(db.engine, {
        count: 10,
        accounts: ACCOUNTS,
        start: new Date("2026-03-02T12:00:00.000Z"),
        idPrefix: "NEXT",
      });
      await db.engine.query("INSERT INTO brokerdesk.account_directory (account_id, account_number) VALUES ('SYN-ACT-1', 'NUM-0001')");
    });
    afterAll(() => close());

    const dayOne = { from: "2026-03-01", to: "2026-03-01" };

    it("pages newest first by keyset, each row exactly once, ties included", async () => {
      const rows = await walk(db, dayOne);
      expect(rows.map((r) => r.id).sort()).toEqual(ALL.map((r) => r.id).sort());
      expect(new Set(rows.map((r) => r.uid)).size).toBe(N);
      const times = rows.map((r) => r.bizTime);
      expect([...times].sort().reverse()).toEqual(times);
      expect(rows[0]).toMatchObject({ id: "SYNACT120", accountId: "SYN-ACT-0", type: "DEPOSIT", netAmount: "120", currency: "USD" });
      // Everything, both days: the next day's rows come first.
      const every = await walk(db, {}, 25);
      expect(every.length).toBe(N + 10);
      expect(every[0].id).toBe("NEXT10");
    });

    it("filters by type, account (id or number), currency, symbol, dates and amount size, across pages", async () => {
      const ids = (rows: ActivityRow[]) => rows.map((r) => r.id);
      const expected = (pred: (r: ReturnType<typeof row>) => boolean) => ALL.filter(pred).map((r) => r.id);
      const deposits = await walk(db, { ...dayOne, type: "DEPOSIT" });
      expect(new Set(ids(deposits))).toEqual(new Set(expected((r) => r.type === "DEPOSIT")));
      expect(new Set(ids(await walk(db, { ...dayOne, account: "SYN-ACT-1" })))).toEqual(
        new Set(expected((r) => r.account === "SYN-ACT-1")),
      );
      expect(new Set(ids(await walk(db, { ...dayOne, account: "NUM-0001" })))).toEqual(new Set(expected((r) => r.account === "SYN-ACT-1")));
      expect(new Set(ids(await walk(db, { ...dayOne, currency: "HKD", type: "WITHDRAW" })))).toEqual(
        new Set(expected((r) => r.currency === "HKD" && r.type === "WITHDRAW")),
      );
      expect(new Set(ids(await walk(db, { ...dayOne, symbol: "AAPL" })))).toEqual(new Set(expected((r) => r.symbol === "AAPL")));
      expect(new Set(ids(await walk(db, { ...dayOne, min: "30", max: "40.5" })))).toEqual(
        new Set(expected((r) => Math.abs(r.net) >= 30 && Math.abs(r.net) <= 40.5)),
      );
      expect(ids(await walk(db, { from: "2026-03-02", to: "2026-03-02" }))).toHaveLength(10);
      expect(ids(await walk(db, { type: "NOT_A_TYPE" }))).toEqual([]);
    });

    it("sums the whole filter by currency (net, credits, debits, count) and the chart by type and day", async () => {
      const s = await activitySummary(db.engine, dayOne, new Date("2026-03-10T00:00:00Z"));
      for (const currency of ["USD", "HKD"]) {
        const mine = ALL.filter((r) => r.currency === currency);
        const t = s.byCurrency.find((x) => x.currency === currency)!;
        expect(t.count).toBe(mine.length);
        expect(new Decimal(t.net).toNumber()).toBe(mine.reduce((a, r) => a + r.net, 0));
        expect(new Decimal(t.credits).toNumber()).toBe(mine.filter((r) => r.net > 0).reduce((a, r) => a + r.net, 0));
        expect(new Decimal(t.debits).toNumber()).toBe(mine.filter((r) => r.net < 0).reduce((a, r) => a + r.net, 0));
      }
      expect(s.count).toBe(N);
      expect([s.chartFrom, s.chartTo]).toEqual(["2026-03-01", "2026-03-01"]);
      const fees = s.chart.find((p) => p.day === "2026-03-01" && p.type === "FEES" && p.currency === "USD")!;
      expect(Number(fees.net)).toBe(ALL.filter((r) => r.type === "FEES" && r.currency === "USD").reduce((a, r) => a + r.net, 0));
      // Deposits only: one type in the chart.
      const deposits = await activitySummary(db.engine, { ...dayOne, type: "DEPOSIT" });
      expect(new Set(deposits.chart.map((p) => p.type))).toEqual(new Set(["DEPOSIT"]));
    });

    it("exports every row of the filter, with formula-like cells neutralised", async () => {
      await db.engine.query("UPDATE brokerdesk.activities SET description = '=HYPERLINK(\"http://x\")' WHERE id = 'SYNACT7'");
      const lines: string[] = [];
      for await (const r of activityCsvRows(db.engine, dayOne)) lines.push(csvLine(r));
      expect(lines).toHaveLength(N);
      expect(lines.find((l) => l.includes("SYNACT7\r\n"))).toContain(`"'=HYPERLINK(""http://x"")"`);
      // A withdrawal's negative amount stays a number (no quote): a spreadsheet sums it with the others.
      expect(lines.find((l) => l.includes("SYNACT1\r\n"))).toContain(",-1,");
      // By account number: that account's rows only (the number resolved once for the whole export).
      const mine: (string | number | null)[][] = [];
      for await (const r of activityCsvRows(db.engine, { ...dayOne, account: "NUM-0001" })) mine.push(r);
      expect(mine.map((r) => r[13]).sort()).toEqual(
        ALL.filter((r) => r.account === "SYN-ACT-1")
          .map((r) => r.id)
          .sort(),
      );
    });
  });
}

describe("the chart's range", () => {
  const now = new Date("2026-11-24T10:00:00Z");
  it("is the filter's range, else the last 30 days, never more than 366 days", () => {
    expect(chartRange({}, now)).toEqual({ from: "2026-10-26", to: "2026-11-24" });
    expect(chartRange({ from: "2026-11-01", to: "2026-11-03" }, now)).toEqual({ from: "2026-11-01", to: "2026-11-03" });
    expect(chartRange({ from: "2020-01-01", to: "2026-11-24" }, now)).toEqual({ from: "2025-11-24", to: "2026-11-24" });
    expect(chartRange({ to: "2026-06-30" }, now)).toEqual({ from: "2026-06-01", to: "2026-06-30" });
    expect(chartRange({ from: "2026-11-20" }, now)).toEqual({ from: "2026-11-20", to: "2026-11-24" });
  });
});
