import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as exportRoute } from "@/app/api/movements/export/route";
import { GET as listRoute } from "@/app/api/movements/route";
import type { MovementFilter, MovementPage, MovementRow, MovementTotals } from "@/lib/schemas/movement-list";
import { listAudit } from "@/server/audit/list";
import { prepareAppDb, setDbForTests, type AppDb } from "@/server/db";
import { fromEnvelope, ingest } from "@/server/books/ingest";
import { getMovementDetail } from "@/server/movement-list/detail";
import { listMovementPage, movementTotals } from "@/server/movement-list/queries/list";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import { testEngines } from "../helpers/engines";

/**
 * The movements list over the read model, fed the way the consumer feeds it (stream events and desk submissions
 * through ingest), on both engines: filters, an account on either side, totals of the whole filter, keyset pages,
 * and the two routes (permission, CSV streaming and its audit entry).
 */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
const SUPPORT = { id: "00000000-0000-4000-8000-000000000002", email: "support@example.test", name: "S", role: "support" };
const COMPLIANCE = { id: "00000000-0000-4000-8000-000000000003", email: "compliance@example.test", name: "C", role: "compliance" };

const N = 60;
const KINDS = ["CASH_JOURNAL", "POSITION_JOURNAL", "INSTANT_FUNDING", "FX_EXCHANGE", "INSTANT_EXCHANGE"] as const;
const STATUSES = ["COMPLETED", "REJECTED", "SUBMITTED", "FAILED"] as const;
const REQUESTER = "ops@example.test";

/** Movement n: its kind, accounts, currency, amount, status and requester follow from n. */
function spec(n: number) {
  const kind = KINDS[n % 5];
  const usd = n % 2 === 1;
  return {
    n,
    kind,
    id: `MV${n}`,
    account: `ACC-${n % 3}`,
    to: `ACC-${(n + 1) % 3}`,
    direction: n % 2 === 1 ? "DEPOSIT" : "WITHDRAWAL",
    currency: usd ? "USD" : "HKD",
    toCurrency: usd ? "HKD" : "USD",
    amount: `${n}.25`,
    toAmount: `${n * 7}.5`,
    status: STATUSES[n % 4],
    requestedBy: n % 3 === 0 ? REQUESTER : undefined,
  };
}
type Spec = ReturnType<typeof spec>;

function payload(s: Spec): Record<string, unknown> {
  const base = { client_request_id: s.id, status: s.status, reason: s.status === "REJECTED" ? "Not enough cash" : undefined };
  switch (s.kind) {
    case "CASH_JOURNAL":
      return { ...base, biz_type: "CASH_JOURNAL", from_account: s.account, to_account: s.to, amount: s.amount, currency: s.currency };
    case "POSITION_JOURNAL":
      return {
        ...base,
        biz_type: "POSITION_JOURNAL",
        from_account: s.account,
        to_account: s.to,
        symbol: "AAPL",
        quantity: "3",
        instrument_type: "EQUITY",
        market: "US",
      };
    case "INSTANT_FUNDING":
      return { ...base, biz_type: "INSTANT_FUNDING", account_id: s.account, type: s.direction, amount: s.amount, currency: s.currency };
    case "FX_EXCHANGE":
      return {
        ...base,
        biz_type: "EXCHANGE",
        account_id: s.account,
        from_amount: s.amount,
        from_currency: s.currency,
        to_amount: s.toAmount,
        to_currency: s.toCurrency,
        fx_rate: "7",
      };
    default:
      return {
        ...base,
        biz_type: "INSTANT_EXCHANGE",
        account_id: s.account,
        from_amount: s.amount,
        from_currency: s.currency,
        to_amount: s.toAmount,
        to_currency: s.toCurrency,
      };
  }
}

const all = Array.from({ length: N }, (_, i) => spec(i + 1));
/** Newest first: created one second apart, n = N the newest; MV10…MV13 share one time (the id breaks the tie). */
const expected = (pred: (s: Spec) => boolean) =>
  [...all]
    .reverse()
    .filter(pred)
    .map((s) => s.id);
const ids = (pages: MovementRow[][]) => pages.flat().map((r) => r.clientRequestId);
const hasAccount = (s: Spec, a: string) => s.account === a || ((s.kind === "CASH_JOURNAL" || s.kind === "POSITION_JOURNAL") && s.to === a);

for (const engine of testEngines()) {
  describe(`movements list on ${engine.name}`, () => {
    let db: AppDb;
    let close: () => Promise<void>;
    // 01:00 UTC three days ago: the 60 rows (a second apart) share one UTC day whatever time the test runs at (from
    // 23:59 on, "now minus three days" put the later rows on the next day and the one-day filter missed them).
    const start = new Date(Math.floor(Date.now() / 86_400_000 - 3) * 86_400_000 + 3_600_000);
    const createdAt = (n: number) => new Date(start.getTime() + (n >= 10 && n <= 13 ? 10 : n) * 1000);

    async function walk(filter: MovementFilter, limit = 7): Promise<MovementRow[][]> {
      const pages: MovementRow[][] = [];
      let cursor: string | undefined;
      do {
        const page = await listMovementPage(db.engine, filter, { cursor, limit });
        pages.push(page.rows);
        cursor = page.nextCursor;
      } while (cursor && pages.length < 100);
      return pages;
    }

    beforeAll(async () => {
      const opened = await engine.open();
      close = opened.close;
      db = await prepareAppDb(opened.engine);
      // Stream events, and for a third of them the desk's own record first (who asked), as a submission writes it.
      const items = all.flatMap((s) => {
        const at = createdAt(s.n).toISOString();
        const event = fromEnvelope(
          { id: `ev-${s.id}`, event_type: s.kind.endsWith("JOURNAL") ? "JOURNAL" : "FUNDING", timestamp: at, payload: payload(s) },
          "stream",
        );
        if (!s.requestedBy) return [event];
        const desk = fromEnvelope(
          {
            id: `movement:${s.kind}:${s.id}`,
            event_type: "DESK_MOVEMENT",
            timestamp: at,
            payload: { ...payload(s), movement_kind: s.kind, status: "SUBMITTED", requested_by: s.requestedBy },
          },
          "desk",
        );
        return [desk, event];
      });
      await ingest(db.engine, items);
      setDbForTests(db);
    });
    afterAll(async () => {
      setDbForTests(undefined);
      await close();
    });
    beforeEach(() => (session.staff = COMPLIANCE));

    it("pages newest first by keyset: every movement exactly once, ties broken by id, in any page size", async () => {
      for (const size of [7, 13, 60]) {
        const pages = await walk({}, size);
        expect(pages.length).toBe(Math.ceil(N / size));
        const got = ids(pages);
        expect(new Set(got).size).toBe(N);
        const times = pages.flat().map((r) => r.createdAt);
        expect([...times].sort().reverse()).toEqual(times);
        expect(got.slice(0, 2)).toEqual(["MV60", "MV59"]);
      }
    });

    it("filters by type (deposits and withdrawals apart), status, currency and date range, across pages", async () => {
      expect(ids(await walk({ type: "CASH_JOURNAL" }))).toEqual(expected((s) => s.kind === "CASH_JOURNAL"));
      expect(ids(await walk({ type: "DEPOSIT" }, 3))).toEqual(expected((s) => s.kind === "INSTANT_FUNDING" && s.direction === "DEPOSIT"));
      expect(ids(await walk({ type: "WITHDRAWAL" }, 3))).toEqual(
        expected((s) => s.kind === "INSTANT_FUNDING" && s.direction === "WITHDRAWAL"),
      );
      expect(ids(await walk({ type: "INSTANT_FUNDING" }))).toEqual(expected((s) => s.kind === "INSTANT_FUNDING"));
      expect(ids(await walk({ status: "REJECTED", type: "FX_EXCHANGE" }))).toEqual(
        expected((s) => s.status === "REJECTED" && s.kind === "FX_EXCHANGE"),
      );
      // A currency matches what was paid or, for an exchange, what was bought.
      expect(ids(await walk({ currency: "HKD" }, 5))).toEqual(
        expected(
          (s) =>
            s.kind !== "POSITION_JOURNAL" &&
            (s.currency === "HKD" || ((s.kind === "FX_EXCHANGE" || s.kind === "INSTANT_EXCHANGE") && s.toCurrency === "HKD")),
        ),
      );
      const day = start.toISOString().slice(0, 10);
      expect(ids(await walk({ from: day, to: day })).length).toBe(N);
      expect(ids(await walk({ to: new Date(start.getTime() - 86_400_000).toISOString().slice(0, 10) }))).toEqual([]);
      expect(ids(await walk({ status: "NOT_A_STATUS" }))).toEqual([]);
    });

    it("an account matches the account of a funding or exchange and either side of a journal", async () => {
      const got = ids(await walk({ account: "ACC-1" }, 4));
      expect(got).toEqual(expected((s) => hasAccount(s, "ACC-1")));
      // MV15 is a cash journal ACC-0 → ACC-1 (found from its to-side), MV10 one ACC-1 → ACC-2 (from its from-side).
      expect(got).toEqual(expect.arrayContaining(["MV15", "MV10"]));
      expect(ids(await walk({ account: "ACC-0", type: "CASH_JOURNAL" }))).toContain("MV15");
      expect(ids(await walk({ account: "ACC-1", type: "CASH_JOURNAL" }))).toContain("MV15");
    });

    it("names accounts by their number where the desk knows it, and takes a number as the account filter", async () => {
      await rememberAccountNumbers(db.engine, [
        { account_id: "ACC-0", account_number: "NUM000" },
        { account_id: "ACC-1", account_number: "NUM001" },
      ]);
      expect(ids(await walk({ account: "NUM001" }))).toEqual(ids(await walk({ account: "ACC-1" })));
      // The number typed in lower case finds the same rows and the same totals.
      expect(ids(await walk({ account: "num001" }))).toEqual(ids(await walk({ account: "ACC-1" })));
      expect(await movementTotals(db.engine, { account: "Num001" })).toEqual(await movementTotals(db.engine, { account: "ACC-1" }));
      const mv15 = (await walk({ account: "ACC-1", type: "CASH_JOURNAL" })).flat().find((r) => r.clientRequestId === "MV15")!;
      expect(mv15).toMatchObject({ fromAccount: "ACC-0", fromAccountNumber: "NUM000", toAccount: "ACC-1", toAccountNumber: "NUM001" });
      const other = (await walk({ account: "ACC-2" })).flat().find((r) => r.accountId === "ACC-2")!;
      expect(other.accountNumber).toBeNull();
      expect(await movementTotals(db.engine, { account: "NUM001" })).toEqual(await movementTotals(db.engine, { account: "ACC-1" }));
    });

    it("filters by requester, the desk's record of who asked; the stream's later status still shows", async () => {
      const got = await walk({ requester: REQUESTER });
      expect(ids(got)).toEqual(expected((s) => s.requestedBy === REQUESTER));
      const mv6 = got.flat().find((r) => r.clientRequestId === "MV6")!;
      expect([mv6.requestedBy, mv6.status]).toEqual([REQUESTER, spec(6).status]);
    });

    it("quick views: not final, awaiting approval, completed today, rejected or failed", async () => {
      expect(ids(await walk({ view: "not_final" }))).toEqual(expected((s) => s.status === "SUBMITTED"));
      expect(ids(await walk({ view: "failed" }))).toEqual(expected((s) => s.status === "REJECTED" || s.status === "FAILED"));
      expect(ids(await walk({ view: "completed_today" }))).toEqual([]);
      expect(ids(await walk({ view: "awaiting_approval" }))).toEqual([]);
    });

    it("totals the whole filter: counts, completed amounts by type and currency (exact decimals), the bought side of exchanges", async () => {
      const sum = (xs: Spec[], f: (s: Spec) => string) => xs.reduce((a, s) => a + Math.round(Number(f(s)) * 100), 0) / 100;
      const totals = await movementTotals(db.engine, {});
      expect(totals.count).toBe(N);
      expect(totals.completed).toBe(all.filter((s) => s.status === "COMPLETED").length);
      expect(totals.positionJournals).toBe(all.filter((s) => s.kind === "POSITION_JOURNAL").length);
      // only completed movements' amounts, and never money in and money out together
      const completed = all.filter((s) => s.status === "COMPLETED" && s.kind !== "POSITION_JOURNAL");
      const key = (s: Spec) => `${s.kind}|${s.kind === "INSTANT_FUNDING" ? s.direction : ""}|${s.currency}`;
      const groups = new Map<string, Spec[]>();
      for (const s of completed) groups.set(key(s), [...(groups.get(key(s)) ?? []), s]);
      expect(groups.size).toBeGreaterThan(2);
      expect(totals.byType.map((t) => [`${t.kind}|${t.direction ?? ""}|${t.currency}`, t.count, t.amount]).sort()).toEqual(
        [...groups].map(([k, xs]) => [k, xs.length, String(sum(xs, (s) => s.amount))]).sort(),
      );
      for (const ccy of ["HKD", "USD"]) {
        const bought = completed.filter((s) => (s.kind === "FX_EXCHANGE" || s.kind === "INSTANT_EXCHANGE") && s.toCurrency === ccy);
        expect(totals.exchangedTo.find((t) => t.currency === ccy)).toEqual(
          bought.length ? { currency: ccy, count: bought.length, amount: String(sum(bought, (s) => s.toAmount)) } : undefined,
        );
      }
      // A filter's totals: every page of it, not the page on screen.
      const deposits = all.filter((s) => s.kind === "INSTANT_FUNDING" && s.direction === "DEPOSIT");
      const doneDeposits = deposits.filter((s) => s.status === "COMPLETED");
      expect(await movementTotals(db.engine, { type: "DEPOSIT" })).toEqual({
        count: deposits.length,
        completed: doneDeposits.length,
        positionJournals: 0,
        exchangedTo: [],
        // counted, and summed only when completed
        byType: doneDeposits.length
          ? [
              {
                kind: "INSTANT_FUNDING",
                direction: "DEPOSIT",
                currency: "USD",
                count: doneDeposits.length,
                amount: String(sum(doneDeposits, (s) => s.amount)),
              },
            ]
          : [],
      });
    });

    it("the detail: every field and the timeline, the desk's record (who asked) before the stream's status", async () => {
      const d = await getMovementDetail(db.engine, "INSTANT_EXCHANGE", "MV9");
      expect(d.movement).toMatchObject({
        kind: "INSTANT_EXCHANGE",
        accountId: "ACC-0",
        amount: "9.25",
        currency: "USD",
        toAmount: "63.5",
        toCurrency: "HKD",
        requestedBy: REQUESTER,
        status: "REJECTED",
        reason: "Not enough cash",
      });
      expect(d.timeline.map((t) => [t.source, t.status, t.requestedBy])).toEqual([
        ["desk", "SUBMITTED", REQUESTER],
        ["stream", "REJECTED", null],
      ]);
      await expect(getMovementDetail(db.engine, "CASH_JOURNAL", "MV9")).rejects.toMatchObject({ name: "NotFoundError" });
      await expect(getMovementDetail(db.engine, "NOT_A_KIND", "MV9")).rejects.toMatchObject({ name: "NotFoundError" });
    });

    it("GET /api/movements: a page, or the filter's totals, as JSON for readers; support gets 403", async () => {
      const get = (q: string) => listRoute(new Request(`http://desk.test/api/movements?${q}`), { params: Promise.resolve({}) });
      const res = await get("type=DEPOSIT&size=25");
      expect(res.status).toBe(200);
      const body = (await res.json()) as MovementPage;
      expect(body.rows.map((r) => r.clientRequestId)).toEqual(expected((s) => s.kind === "INSTANT_FUNDING" && s.direction === "DEPOSIT"));
      const totals = (await (await get("type=DEPOSIT&size=25&cursor=whatever&part=totals")).json()) as MovementTotals;
      expect(totals).toEqual(await movementTotals(db.engine, { type: "DEPOSIT" }));
      expect(totals.count).toBe(body.rows.length);
      session.staff = SUPPORT;
      expect((await listRoute(new Request("http://desk.test/api/movements"), { params: Promise.resolve({}) })).status).toBe(403);
      expect((await exportRoute(new Request("http://desk.test/api/movements/export"), { params: Promise.resolve({}) })).status).toBe(403);
    });

    it("the CSV export streams every movement of the filter and is audited once with the filter and row count", async () => {
      await rememberAccountNumbers(db.engine, [
        { account_id: "ACC-0", account_number: "NUM000" },
        { account_id: "ACC-1", account_number: "NUM001" },
      ]);
      const res = await exportRoute(new Request("http://desk.test/api/movements/export?account=ACC-1&size=25"), {
        params: Promise.resolve({}),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const lines = (await res.text()).trim().split("\r\n");
      const want = expected((s) => hasAccount(s, "ACC-1"));
      expect(lines).toHaveLength(want.length + 1);
      expect(lines[0]).toMatch(
        /^Created \(UTC\),Type,Kind,Status,Account,Account number,From account,From account number,To account,To account number,Amount,/,
      );
      const header = lines[0].split(",");
      const rows = lines.slice(1).map((l) => l.split(","));
      const col = (row: string[], name: string) => row[header.indexOf(name)];
      expect(rows.map((r) => col(r, "Client request id"))).toEqual(want);
      // Accounts by their number as well as their id, as the screen names them.
      const mv15 = rows.find((r) => col(r, "Client request id") === "MV15")!;
      expect(
        ["Account", "Account number", "From account", "From account number", "To account", "To account number"].map((c) => col(mv15, c)),
      ).toEqual(["ACC-0", "NUM000", "ACC-0", "NUM000", "ACC-1", "NUM001"]);
      const mv13 = rows.find((r) => col(r, "Client request id") === "MV13")!; // an exchange of ACC-1: no from or to side
      expect(["Account", "Account number", "From account number", "To account number"].map((c) => col(mv13, c))).toEqual([
        "ACC-1",
        "NUM001",
        "",
        "",
      ]);
      // One success entry (the denied support export of the test before wrote its own denied entry).
      const entries = (await listAudit(db.engine, { action: "movements.export" })).rows.filter((e) => e.outcome !== "denied");
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        outcome: "success",
        actorEmail: COMPLIANCE.email,
        input: { filter: { account: "ACC-1" }, rows: want.length },
      });
    });
  });
}
