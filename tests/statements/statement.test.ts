import Decimal from "decimal.js";
import { unzipSync } from "fflate";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as confirmationPdfRoute } from "@/app/api/accounts/[accountId]/confirmations/[date]/pdf/route";
import { GET as statementCsvRoute } from "@/app/api/accounts/[accountId]/statement/csv/route";
import { GET as statementPdfRoute } from "@/app/api/accounts/[accountId]/statement/pdf/route";
import { currencyDecimals, formatMoney } from "@/lib/money";
import type { Statement } from "@/lib/schemas/statements";
import { sweepAccount } from "@/server/activities/account-window";
import { setDbForTests } from "@/server/db";
import { listStatementRuns, requestStatementRun, runStatementRuns, statementRunZip } from "@/server/statements/bulk";
import { confirmationPdf, statementPdf } from "@/server/statements/pdf";
import { accountStatement, executionDays, tradeConfirmation } from "@/server/statements/statement";
import { newAccount } from "../sandbox/fixture";
import { ACCOUNTS, engines, rid, setPrice, stock, US_CORE } from "../sandbox/trading-helpers";
import { startEventsFixture, until, type EventsFixture } from "../events/helpers";
import { sessionPerson } from "../helpers/staff";
import type { SignedClient } from "../helpers/signed-fetch";

/**
 * Account statements against a started sandbox, on both engines: a new account is funded, trades (two fills through
 * the sandbox's market), journals cash and shares, exchanges currency and withdraws; the event consumer and the
 * activities sweep fill the books. The statement's figures are then recomputed from the books independently (money
 * movements and executions, not the activities the statement sums) and compared, its closing balance compared with
 * the upstream's cash balance, and its PDF's text read back for the figures.
 */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
const OPERATIONS = sessionPerson(1, "operations");
const SUPPORT = sessionPerson(2, "support");

const FILL_DAY = US_CORE.slice(0, 10);
const dayAfter = (d: string) => new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const today = () => new Date().toISOString().slice(0, 10);
const money = (amount: Decimal.Value, currency: string) =>
  formatMoney(new Decimal(amount).toFixed(), undefined, currencyDecimals(currency));
const sum = (values: Decimal.Value[]) => values.reduce<Decimal>((s, v) => s.plus(v), new Decimal(0));

describe.each(engines)("account statements ($name)", (te) => {
  let f: EventsFixture;
  let account: string;
  let accountNumber: string;
  const other = ACCOUNTS.margin;
  const q = async <T>(sql: string, params: unknown[] = []) => (await f.db.engine.query<T>(sql, params)).rows;

  beforeAll(async () => {
    f = await startEventsFixture(te);
    setDbForTests(f.db);
    f.consumer();
    const opened = await f.api.op("createVirtualAccount", "resource", { body: newAccount() });
    expect(opened.status).toBe(200);
    account = opened.body.account_id;
    accountNumber = opened.body.account_number;
    const ok = async (op: Parameters<SignedClient["op"]>[0], body: Record<string, unknown>) => {
      const r = await f.api.op(op, "resource", { body: { client_request_id: rid("st"), ...body } });
      expect(r.body.status, JSON.stringify(r.body)).toBe("COMPLETED");
    };
    await ok("createInstantFunding", { account_id: account, type: "DEPOSIT", amount: "50000.00", currency: "USD" });
    await ok("createInstantFunding", { account_id: account, type: "DEPOSIT", amount: "10000.00", currency: "HKD" });
    // Two fills on the market clock's day (the fixture pins it to FILL_DAY): a buy, then part of it sold.
    await setPrice(f.api, "AAPL", "100.00");
    for (const o of [
      stock({ side: "BUY", quantity: "10", limit_price: "101.00" }),
      stock({ side: "SELL", quantity: "4", limit_price: "99.00" }),
    ]) {
      const placed = await f.api.op("placeOrder", "resource", { body: { account_id: account, new_orders: [o] } });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      await until(
        async () => (await q("SELECT 1 FROM brokerdesk.executions WHERE client_order_id = $1", [o.client_order_id])).length === 1,
      );
    }
    await ok("createCashJournal", { from_account: account, to_account: other, amount: "1234.56", currency: "USD" });
    await ok("createCashJournal", { from_account: other, to_account: account, amount: "300.00", currency: "HKD" });
    await ok("createPositionJournal", {
      from_account: account,
      to_account: other,
      instrument_type: "EQUITY",
      market: "US",
      symbol: "AAPL",
      quantity: "2",
    });
    await ok("createInstantExchange", {
      account_id: account,
      from_amount: "100.00",
      to_amount: "779.00",
      from_currency: "USD",
      to_currency: "HKD",
    });
    await ok("createInstantFunding", { account_id: account, type: "WITHDRAWAL", amount: "500.00", currency: "USD" });
    // The books: every movement projected by the consumer, then the account's activities read by the sweep.
    await until(
      async () =>
        Number(
          (
            await q<{ n: number }>(
              "SELECT count(*)::int AS n FROM brokerdesk.money_movements WHERE status = 'COMPLETED' AND $1 IN (account_id, from_account, to_account)",
              [account],
            )
          )[0].n,
        ) === 7,
    );
    for (const a of [account, other]) {
      const swept = await sweepAccount({ engine: f.db.engine, client: f.client, rate: 200, settleMs: 0 }, { account_id: a });
      expect(swept.complete).toBe(true);
    }
  }, 120_000);
  afterAll(async () => {
    setDbForTests(undefined);
    await f?.close();
  });

  /** The account's cash effect per currency, recomputed from the books' movements and executions in [from, to]. */
  async function fromBooks(from: string | null, to: string) {
    const end = new Date(Date.parse(`${dayAfter(to)}T00:00:00Z`));
    const start = from ? new Date(Date.parse(`${from}T00:00:00Z`)) : new Date(0);
    const cash = new Map<string, Decimal>();
    const add = (currency: string, amount: Decimal.Value) => cash.set(currency, (cash.get(currency) ?? new Decimal(0)).plus(amount));
    const movements = await q<{
      kind: string;
      account_id: string | null;
      from_account: string | null;
      to_account: string | null;
      direction: string | null;
      amount: string;
      currency: string;
      to_amount: string | null;
      to_currency: string | null;
    }>(
      `SELECT kind, account_id, from_account, to_account, direction, amount::text, currency, to_amount::text, to_currency
         FROM brokerdesk.money_movements
        WHERE status = 'COMPLETED' AND $1 IN (account_id, from_account, to_account) AND created_at >= $2 AND created_at < $3`,
      [account, start, end],
    );
    for (const m of movements) {
      if (m.kind === "CASH_JOURNAL") add(m.currency, m.from_account === account ? new Decimal(m.amount).neg() : m.amount);
      if (m.kind === "INSTANT_FUNDING") add(m.currency, m.direction === "DEPOSIT" ? m.amount : new Decimal(m.amount).neg());
      if (m.kind === "INSTANT_EXCHANGE") {
        add(m.currency, new Decimal(m.amount).neg());
        add(m.to_currency!, m.to_amount!);
      }
    }
    const executions = await q<{ side: string; quantity: string; price: string; commission: string; fees: { actual_value: string }[] }>(
      `SELECT side, quantity::text, price::text, commission::text, fees FROM brokerdesk.executions
        WHERE account_id = $1 AND filled_at >= $2 AND filled_at < $3 ORDER BY filled_at, id`,
      [account, start, end],
    );
    const nets = executions.map((e) => {
      const gross = new Decimal(e.quantity).times(e.price);
      return (e.side === "SELL" ? gross : gross.neg()).minus(e.commission).minus(sum(e.fees.map((x) => x.actual_value)));
    });
    for (const n of nets) add("USD", n);
    return { cash, executions, nets };
  }

  const figures = (s: Statement) => Object.fromEntries(s.currencies.map((c) => [c.currency, new Decimal(c.closing).toFixed(2)]));

  it("totals equal the books over a period with trades, journals, funding and FX", async () => {
    const s = await accountStatement(f.db.engine, account, { from: FILL_DAY, to: today() });
    const books = await fromBooks(FILL_DAY, today());
    expect(books.executions).toHaveLength(2);
    expect(s.accountNumber).toBe(accountNumber);
    expect(s.complete).toBe(false); // today is not over
    // A new account: nothing before the period, so closing = the period's activity = what the books say moved.
    for (const c of s.currencies) expect(new Decimal(c.opening).isZero()).toBe(true);
    expect(figures(s)).toEqual(Object.fromEntries([...books.cash].map(([c, v]) => [c, v.toFixed(2)])));
    // … and what the upstream holds now.
    const balance = (await f.api.op("getBalance", "resource", { query: { account_id: account } })).body;
    const upstream = Object.fromEntries(
      (balance.account_currency_assets as { currency: string; cash_balance: string }[])
        .filter((a) => !new Decimal(a.cash_balance).isZero())
        .map((a) => [a.currency, new Decimal(a.cash_balance).toFixed(2)]),
    );
    expect(figures(s)).toEqual(upstream);
    // Each currency adds up: opening + credits + debits = closing, and its lines' running balance ends there.
    for (const c of s.currencies) {
      expect(new Decimal(c.opening).plus(c.credits).plus(c.debits).eq(c.closing)).toBe(true);
      expect(sum(c.byType.map((t) => t.amount)).eq(new Decimal(c.closing).minus(c.opening))).toBe(true);
      expect(s.cash.filter((l) => l.currency === c.currency).at(-1)?.balance).toBe(c.closing);
    }
    // Trades: the executions with their charges; the TRADE lines of the cash activity are the same nets.
    expect(s.trades.map((t) => new Decimal(t.net).toFixed(2))).toEqual(books.nets.map((n) => n.toFixed(2)));
    expect(s.trades.every((t) => new Decimal(t.commission).gt(0))).toBe(true);
    // (both fills share the market clock's moment: the cash lines' order among them is the activities' ids')
    const tradeLines = s.cash.filter((l) => l.type === "TRADE").map((l) => new Decimal(l.amount).toFixed(2));
    expect(tradeLines.sort()).toEqual(books.nets.map((n) => n.toFixed(2)).sort());
    expect(s.cash.map((l) => l.type)).toEqual(expect.arrayContaining(["DEPOSIT", "WITHDRAW", "JOURNAL", "OTHER", "TRADE"]));
    expect(s.tradeMismatches).toEqual([]);
    // Positions at the end: bought 10, sold 4, journalled 2 away.
    expect(s.positions).toEqual([{ market: "US", symbol: "AAPL", quantity: "4" }]);
  });

  it("opens a later period with the balance the earlier activity left", async () => {
    const later = dayAfter(FILL_DAY);
    const s = await accountStatement(f.db.engine, account, { from: later, to: today() });
    const before = await fromBooks(null, FILL_DAY);
    const within = await fromBooks(later, today());
    const usd = s.currencies.find((c) => c.currency === "USD")!;
    // Opening: the trades' nets (the only activity before); no trades within.
    expect(new Decimal(usd.opening).toFixed(2)).toBe(before.cash.get("USD")!.toFixed(2));
    expect(s.trades).toEqual([]);
    expect(new Decimal(usd.closing).minus(usd.opening).toFixed(2)).toBe(within.cash.get("USD")!.toFixed(2));
    // The day of the fills alone: opening zero, closing the trades' nets.
    const fillDay = await accountStatement(f.db.engine, account, { from: FILL_DAY, to: FILL_DAY });
    expect(fillDay.complete).toBe(true);
    expect(fillDay.currencies.map((c) => [c.currency, new Decimal(c.opening).toFixed(2), new Decimal(c.closing).toFixed(2)])).toEqual([
      ["USD", "0.00", before.cash.get("USD")!.toFixed(2)],
    ]);
    expect(fillDay.positions).toEqual([{ market: "US", symbol: "AAPL", quantity: "6" }]);
  });

  it("says where the executions and the trade cash lines disagree", async () => {
    // The copy without the account's trade activities (rolled back after): the executions alone carry the trades.
    const rollback = new Error("rollback");
    const nets = (await fromBooks(FILL_DAY, today())).nets;
    await expect(
      f.db.engine.transaction(async (tx) => {
        await tx.query("DELETE FROM brokerdesk.activities WHERE account_id = $1 AND activity_type = 'TRADE'", [account]);
        const s = await accountStatement(tx, account, { from: FILL_DAY, to: today() });
        expect(s.tradeMismatches).toEqual([{ currency: "USD", executions: sum(nets).toFixed(), activities: "0" }]);
        const { text } = await extractText(new Uint8Array(await statementPdf(s)), { mergePages: true });
        expect(text).toContain(`executions net ${money(sum(nets), "USD")} USD`);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect((await accountStatement(f.db.engine, account, { from: FILL_DAY, to: today() })).tradeMismatches).toEqual([]);
  });

  it("writes the figures into the PDF, and the confirmation's", async () => {
    const s = await accountStatement(f.db.engine, account, { from: FILL_DAY, to: today() });
    const { text } = await extractText(new Uint8Array(await statementPdf(s)), { mergePages: true });
    expect(text).toContain("Account statement");
    expect(text).toContain(accountNumber);
    for (const c of s.currencies) {
      for (const v of [c.opening, c.credits, c.debits, c.closing]) expect(text).toContain(money(v, c.currency));
    }
    for (const t of s.trades) for (const v of [t.gross, t.commission, t.fees, t.net]) expect(text).toContain(money(v, "USD"));
    expect(text).toContain(money("1234.56", "USD").replace(/^/, "-"));

    expect(await executionDays(f.db.engine, account)).toEqual([{ date: FILL_DAY, executions: 2 }]);
    const c = await tradeConfirmation(f.db.engine, account, FILL_DAY);
    const books = await fromBooks(FILL_DAY, FILL_DAY);
    expect(new Decimal(c.totals[0].net).toFixed(2)).toBe(sum(books.nets).toFixed(2));
    const confirmation = (await extractText(new Uint8Array(await confirmationPdf(c)), { mergePages: true })).text;
    expect(confirmation).toContain("Trade confirmation");
    expect(confirmation).toContain(money(c.totals[0].net, "USD"));
    expect(confirmation).toContain(money(c.totals[0].commission, "USD"));
  });

  it("serves the downloads behind the permission, audited", async () => {
    const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });
    const url = `http://desk.test/api/accounts/${account}/statement/pdf?from=${FILL_DAY}&to=${today()}`;
    session.staff = SUPPORT;
    expect((await statementPdfRoute(new Request(url), ctx({ accountId: account }))).status).toBe(403);
    session.staff = OPERATIONS;
    const pdf = await statementPdfRoute(new Request(url), ctx({ accountId: account }));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    const bad = await statementPdfRoute(new Request(url.replace(`from=${FILL_DAY}`, "from=2026-13-01")), ctx({ accountId: account }));
    expect(bad.status).toBe(400);
    const csv = await statementCsvRoute(new Request(url.replace("/pdf", "/csv")), ctx({ accountId: account }));
    const lines = (await csv.text()).split("\r\n");
    const s = await accountStatement(f.db.engine, account, { from: FILL_DAY, to: today() });
    for (const c of s.currencies)
      expect(lines.filter((l) => l.startsWith(`closing,`) || l.startsWith("balance,")).join("\n")).toContain(`,${c.currency},closing,`);
    const closingUsd = lines.find((l) => l.startsWith("balance,") && l.includes(",USD,closing,"))!;
    expect(new Decimal(closingUsd.split(",")[12]).eq(s.currencies.find((c) => c.currency === "USD")!.closing)).toBe(true);
    const conf = await confirmationPdfRoute(new Request(`http://desk.test/x`), ctx({ accountId: account, date: FILL_DAY }));
    expect(conf.status).toBe(200);
    const audit = await q<{ action: string; outcome: string; actor_email: string }>(
      "SELECT action, outcome, actor_email FROM brokerdesk.audit_entries WHERE action LIKE 'statements.%' ORDER BY seq",
    );
    expect(audit.map((a) => `${a.action}:${a.outcome}:${a.actor_email}`)).toEqual([
      `statements.download:denied:${SUPPORT.email}`,
      `statements.download:success:${OPERATIONS.email}`,
      `statements.download:failure:${OPERATIONS.email}`,
      `statements.export:success:${OPERATIONS.email}`,
      `statements.download:success:${OPERATIONS.email}`,
    ]);
  });

  it("renders every account's statement of a period into one zip, resuming where a run stopped", async () => {
    const period = { from: FILL_DAY, to: today() };
    const run = await requestStatementRun(f.db.engine, period, OPERATIONS.email);
    // A slice that ends after the first account (the signal reads aborted from its third look on).
    let looks = 0;
    const slice = {
      get aborted() {
        looks += 1;
        return looks > 2;
      },
    } as AbortSignal;
    expect(await runStatementRuns(f.db.engine, slice, () => undefined)).toEqual({ again: true, runs: 0 });
    expect((await listStatementRuns(f.db.engine)).runs[0]).toMatchObject({ id: run.id, status: "running", done: 1, total: 2 });
    expect(await q("SELECT name FROM brokerdesk.statement_run_files WHERE run_id = $1", [run.id])).toHaveLength(2);
    expect(await runStatementRuns(f.db.engine, new AbortController().signal, () => undefined)).toEqual({ again: false, runs: 1 });
    const done = (await listStatementRuns(f.db.engine)).runs[0];
    expect(done).toMatchObject({ id: run.id, status: "done", done: 2, total: 2 });
    const zip = await statementRunZip(f.db.engine, run.id);
    const files = unzipSync(zip.body);
    const name = `statement-${accountNumber}-${period.from}-to-${period.to}`;
    expect(Object.keys(files)).toEqual(expect.arrayContaining([`${name}.pdf`, `${name}.csv`]));
    expect(Object.keys(files)).toHaveLength(4);
    const s = await accountStatement(f.db.engine, account, period);
    const text = (await extractText(files[`${name}.pdf`], { mergePages: true })).text;
    for (const c of s.currencies) expect(text).toContain(money(c.closing, c.currency));
    expect(await q("SELECT 1 FROM brokerdesk.statement_run_files WHERE run_id = $1", [run.id])).toEqual([]);
  });
});
