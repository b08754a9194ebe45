import Decimal from "decimal.js";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { isPendingApproval } from "@/lib/errors";
import { newClientId } from "@/lib/ids";
import { BULK_JOURNAL_MAX_ROWS, parseBulkJournalCsv, rowClientRequestId } from "@/lib/schemas/bulk-journals";
import { approveApprovalAction } from "@/server/actions/approvals";
import { retryBulkJournalRowsAction, uploadBulkJournalsAction } from "@/server/actions/movements";
import { getApproval } from "@/server/approvals/requests";
import { recoverStuckExecutions } from "@/server/approvals/recover";
import { listRules, setRuleEnabled } from "@/server/approvals/queries/rules";
import { getBatchView } from "@/server/bulk-journals/page-data";
import { NOT_RECEIVED_MESSAGE } from "@/server/bulk-journals/settle";
import { setDbForTests, type AppDb } from "@/server/db";
import type { Engine } from "@/server/db/engine";
import { masterAccountId } from "@/server/sandbox/seed";
import { testEngines } from "../helpers/engines";
import { useFixtureWithoutRules } from "../helpers/four-eyes";
import { as } from "../helpers/desk-session";
import { sessionPerson as person } from "../helpers/staff";
import { until } from "../events/helpers";
import { ACCOUNTS } from "../sandbox/trading-helpers";

/**
 * Bulk journals against a started sandbox: a CSV's bad rows come back by line and column with nothing held or sent;
 * the fixed batch is held as one request, and its approval sends every row once (the sandbox counts each
 * client_request_id); failed rows are retried alone with their same ids; a stopped execution is settled by asking
 * the upstream about each row, never by sending.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.7"));
vi.mock("next/cache", async () => (await import("../helpers/desk-session")).mockedNextCache);

const MAKER = person(21, "operations");
const CHECKER = person(22, "admin");
const CASH_CREATE = "POST /broker/journals/cash-journals/create";
const POSITION_CREATE = "POST /broker/journals/position-journals/create";
const HEADER = "kind,from_account,to_account,currency,amount,instrument_type,market,symbol,quantity";
const TARGETS = [ACCOUNTS.margin, ACCOUNTS.cash, ACCOUNTS.marginCn];

/** `n` cash journals from the master account (a cent more each), then the given extra lines. */
function csv(n: number, extra: string[] = []): string {
  const lines = Array.from({ length: n }, (_, i) => `CASH,${masterAccountId()},${TARGETS[i % 3]},USD,${(1 + i / 100).toFixed(2)},,,,`);
  return [HEADER, ...lines, ...extra].join("\n");
}

describe("the bulk journal CSV parser", () => {
  it("reads quoted cells, names each bad row's line and column, and refuses more than the limit", () => {
    const text = [HEADER, `CASH,"A1","B,2",USD,"1,000.00",,,,`, "", `CASH,A1,A1,USD,5,,,,`, `SWAP,A1,B2,USD,5,,,,`].join("\r\n");
    const { rows, errors } = parseBulkJournalCsv("bj_x", text);
    expect(rows).toEqual([]);
    expect(errors).toEqual([
      { line: 2, column: "amount", message: expect.any(String) },
      { line: 4, column: "to_account", message: "Choose two different accounts" },
      { line: 5, column: "kind", message: "Write CASH or POSITION" },
    ]);
    const ok = parseBulkJournalCsv("bj_x", `${HEADER}\nPOSITION,A1,B2,,,,,aapl,3`);
    expect(ok.rows).toEqual([
      {
        kind: "POSITION_JOURNAL",
        line: 2,
        request: {
          client_request_id: "bj_x-2",
          from_account: "A1",
          to_account: "B2",
          instrument_type: "EQUITY",
          market: "US",
          symbol: "AAPL",
          quantity: "3",
        },
      },
    ]);
    const many = parseBulkJournalCsv("bj_x", csv(BULK_JOURNAL_MAX_ROWS + 1));
    expect(many.errors).toEqual([{ line: BULK_JOURNAL_MAX_ROWS + 2, column: "row", message: expect.stringContaining("at most 1,000") }]);
  });
});

for (const engine of testEngines()) {
  describe(`bulk journals on ${engine.name}`, () => {
    const f = useFixtureWithoutRules(engine);

    beforeAll(async () => {
      // The batch's own default rule (migration 0150): always held, whatever the amounts.
      const rule = (await listRules(f.db.engine)).find((r) => r.action === "movements.bulk_journals");
      expect(rule).toMatchObject({ threshold: null, approversRequired: 1 });
      await setRuleEnabled(f.db.engine, rule!.id, true, "tests");
    });

    const calls = async () => ((await f.api.call("GET", "/sandbox/calls")).body as { data: Record<string, number> }).data;
    const cashCreates = async () => (await calls())[CASH_CREATE] ?? 0;
    const byRequestId = async () =>
      ((await f.api.call("GET", "/sandbox/calls/by-request-id")).body as { data: Record<string, number> }).data;
    const sendsOf = (counts: Record<string, number>, batch: string) =>
      Object.entries(counts).filter(([k]) => k.includes(` ${batch}-`) && k.includes("/create "));
    async function upload(batch: string, text: string) {
      return as(MAKER, () => uploadBulkJournalsAction({ batch_id: batch, csv: text }));
    }
    async function hold(batch: string, text: string): Promise<string> {
      const r = await upload(batch, text);
      if (!r.ok || !isPendingApproval(r.data)) throw new Error(`not held: ${JSON.stringify(r).slice(0, 500)}`);
      return r.data.approvalId;
    }
    async function heldPosition(): Promise<{ from: string; to: string; symbol: string }> {
      for (const from of [ACCOUNTS.cash, ACCOUNTS.margin, ACCOUNTS.marginCn, ACCOUNTS.optionsLv2]) {
        const p = (await f.client.listPositions({ account_id: from })).find(
          (x) => (x.instrument_type ?? "EQUITY") === "EQUITY" && (x.market ?? "US") === "US" && new Decimal(x.quantity).gte(4),
        );
        if (p) return { from, to: from === ACCOUNTS.margin ? ACCOUNTS.cash : ACCOUNTS.margin, symbol: p.symbol };
      }
      throw new Error("no seeded account holds 4 shares of a US stock");
    }

    it("500 rows with 3 bad: the 3 by line and column, nothing held or sent; fixed: one approval sends 500 journals, each once", async () => {
      const batch = newClientId("bj");
      const p = await heldPosition();
      const positions = [2, 3].map(() => `POSITION,${p.from},${p.to},,,EQUITY,US,${p.symbol},1`);
      const good = csv(498, positions).split("\n");
      const bad = [...good];
      bad[9] = bad[9].replace(/USD,[\d.]+/, "USD,12.345"); // line 10: three decimals
      bad[199] = bad[199].replace(TARGETS[198 % 3], "NO-SUCH-ACCOUNT"); // line 200
      bad[449] = bad[449].replace("USD", "XYZ"); // line 450
      const before = await calls();

      const refused = await upload(batch, bad.join("\n"));
      expect(refused).toMatchObject({ ok: false, code: "BATCH_INVALID", serverError: "3 rows to fix: nothing was held or sent." });
      expect(Object.keys(!refused.ok ? (refused.fieldErrors ?? {}) : {}).sort()).toEqual(["10:amount", "200:to_account", "450:currency"]);
      const after = await calls();
      expect([after[CASH_CREATE] ?? 0, after[POSITION_CREATE] ?? 0]).toEqual([before[CASH_CREATE] ?? 0, before[POSITION_CREATE] ?? 0]);
      expect(await getBatchView(f.db, batch)).toBeUndefined();

      const approvalId = await hold(batch, good.join("\n"));
      // A second submit of the same batch waits once.
      expect(await upload(batch, good.join("\n"))).toMatchObject({ ok: true, data: { pending: true, approvalId } });
      const held = await getApproval(f.db, approvalId);
      expect(held).toMatchObject({ status: "pending", action: "movements.bulk_journals", clientRequestId: batch });
      expect(held.summary).toContain("500 rows: 498 cash journals");
      expect((await calls())[CASH_CREATE] ?? 0).toBe(before[CASH_CREATE] ?? 0);
      expect((await getBatchView(f.db, batch))?.rows.map((r) => r.status)).toEqual(Array(500).fill("pending"));

      // The maker cannot approve their own batch; a second person's approval sends it.
      expect(await as(MAKER, () => approveApprovalAction({ id: approvalId }))).toMatchObject({ ok: false, code: "OWN_REQUEST" });
      expect(await as(CHECKER, () => approveApprovalAction({ id: approvalId }))).toMatchObject({ ok: true });
      expect(await getApproval(f.db, approvalId)).toMatchObject({ status: "executed", result: { rows: 500, sent: 500, failed: 0 } });

      const end = await calls();
      expect((end[CASH_CREATE] ?? 0) - (before[CASH_CREATE] ?? 0)).toBe(498);
      expect((end[POSITION_CREATE] ?? 0) - (before[POSITION_CREATE] ?? 0)).toBe(2);
      const sends = sendsOf(await byRequestId(), batch);
      expect(sends).toHaveLength(500);
      expect(sends.every(([, n]) => n === 1)).toBe(true);
      const expected = good.slice(1).map((_, i) => rowClientRequestId(batch, i + 2));
      expect(sends.map(([k]) => k.split(" ")[2]).sort()).toEqual(expected.sort());

      const view = await getBatchView(f.db, batch);
      expect(view?.approval?.status).toBe("executed");
      expect(view?.rows.filter((r) => r.status === "sent")).toHaveLength(500);
      expect(view?.rows[0]).toMatchObject({ line: 2, kind: "CASH_JOURNAL", amount: "1.00", upstreamStatus: expect.any(String) });
    }, 300_000);

    it("refuses a batch above a source's available cash on the row where the running total passes it", async () => {
      const balance = await f.client.getBalance({ account_id: ACCOUNTS.margin });
      const available = balance.account_currency_assets.find((a) => a.currency === "USD")?.available_withdrawal ?? "0";
      const half = new Decimal(available).div(2).plus(1).toFixed(2);
      const text = [
        HEADER,
        `CASH,${ACCOUNTS.margin},${ACCOUNTS.cash},USD,${half},,,,`,
        `CASH,${ACCOUNTS.margin},${ACCOUNTS.cash},USD,${half},,,,`,
      ].join("\n");
      const r = await upload(newClientId("bj"), text);
      expect(r).toMatchObject({ ok: false, code: "BATCH_INVALID", fieldErrors: { "3:amount": expect.stringContaining("available cash") } });
      expect(Object.keys(!r.ok ? (r.fieldErrors ?? {}) : {})).toEqual(["3:amount"]);
    });

    it("rows that failed upstream are retried alone, each with its same request id, once the batch is executed", async () => {
      const batch = newClientId("bj");
      const approvalId = await hold(batch, csv(20));
      // The next three journal sends fail at the upstream (the test's client does not retry).
      await f.api.call("POST", "/sandbox/faults", {
        body: { type: "ERROR", path_pattern: "/broker/journals/cash-journals/create", count: 3, status: 503 },
      });
      expect(await as(CHECKER, () => approveApprovalAction({ id: approvalId }))).toMatchObject({ ok: true });
      expect(await getApproval(f.db, approvalId)).toMatchObject({ status: "executed", result: { sent: 17, failed: 3 } });
      const failed = (await getBatchView(f.db, batch))!.rows.filter((r) => r.status === "failed");
      expect(failed.map((r) => r.line)).toEqual([2, 3, 4]);
      // Told in the batch page's words: its button retries, with the same request id.
      expect(failed[0].message).toMatch(/Retry failed rows when ready: the same request is sent/);
      expect(failed[0].message).not.toMatch(/Submit again/);

      const before = await cashCreates();
      const retried = await as(MAKER, () => retryBulkJournalRowsAction({ batch_id: batch }));
      expect(retried).toMatchObject({ ok: true, data: { sent: 3, failed: 0, skipped: 17 } });
      expect((await cashCreates()) - before).toBe(3);
      const sends = Object.fromEntries(sendsOf(await byRequestId(), batch));
      for (const r of failed) expect(sends[`${CASH_CREATE} ${r.clientRequestId}`]).toBe(2); // the failed send and the retry
      expect(Object.values(sends).filter((n) => n === 1)).toHaveLength(17);
      expect((await getBatchView(f.db, batch))!.rows.every((r) => r.status === "sent")).toBe(true);
      // Nothing left to retry: refused, nothing sent.
      expect(await as(MAKER, () => retryBulkJournalRowsAction({ batch_id: batch }))).toMatchObject({ ok: false, code: "NOTHING_TO_RETRY" });
      expect((await cashCreates()) - before).toBe(3);
      // Retrying is moving money: a role without movements:write is refused.
      expect(await as(CHECKER, () => retryBulkJournalRowsAction({ batch_id: batch }))).toMatchObject({ ok: false, code: "FORBIDDEN" });
    }, 120_000);

    it("an execution stopped after two rows is settled by asking the upstream about each row; the retry sends the rest once", async () => {
      const batch = newClientId("bj");
      const approvalId = await hold(batch, csv(5));
      const before = await cashCreates();
      // The process stops as the second row's result is written: that row reached the upstream, the others did not.
      const crash = { stopped: false, settles: 0 };
      setDbForTests(stoppingDb(f.db, crash));
      void as(CHECKER, () => approveApprovalAction({ id: approvalId }));
      try {
        await until(() => crash.stopped, 60_000, "the process stopped");
      } finally {
        setDbForTests(f.db);
      }
      expect((await getApproval(f.db, approvalId)).status).toBe("executing");
      await f.db.engine.query("UPDATE brokerdesk.approval_requests SET alive_at = now() - interval '1 minute' WHERE id = $1", [approvalId]);

      expect(await recoverStuckExecutions(f.db, { client: f.client })).toBe(1);
      expect(await getApproval(f.db, approvalId)).toMatchObject({
        status: "executed",
        result: { recovered: true, upstreamStatus: "2 of 5 rows sent" },
      });
      expect((await cashCreates()) - before).toBe(2);
      const rows = (await getBatchView(f.db, batch))!.rows;
      expect(rows.map((r) => r.status)).toEqual(["sent", "sent", "failed", "failed", "failed"]);
      expect(rows[2].message).toBe(NOT_RECEIVED_MESSAGE);

      expect(await as(MAKER, () => retryBulkJournalRowsAction({ batch_id: batch }))).toMatchObject({ ok: true, data: { sent: 3 } });
      expect((await cashCreates()) - before).toBe(5);
      const sends = sendsOf(await byRequestId(), batch);
      expect(sends).toHaveLength(5);
      expect(sends.every(([, n]) => n === 1)).toBe(true);
    }, 120_000);
  });
}

const never = () => new Promise<never>(() => undefined);

/** A process that stops as it writes the second row's result: from then on no statement of it ever returns. */
function stoppingDb(db: AppDb, crash: { stopped: boolean; settles: number }): AppDb {
  const real = db.engine;
  const query: Engine["query"] = (sql, params) => {
    if (crash.stopped) return never();
    if (/bulk_journal_rows SET status = \$3, upstream_status/.test(sql) && ++crash.settles === 2) {
      crash.stopped = true;
      return never();
    }
    return real.query(sql, params);
  };
  const engine: Engine = {
    kind: real.kind,
    driver: real.driver,
    close: () => real.close(),
    query,
    exec: (sql) => (crash.stopped ? never() : real.exec(sql)),
    transaction: (fn) => (crash.stopped ? never() : real.transaction(fn)),
  };
  return { ...db, engine };
}
