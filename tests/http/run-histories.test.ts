import { describe, expect, it, vi } from "vitest";
import { GET as reconciliationRuns } from "@/app/api/reconciliation/runs/route";
import { GET as reportRuns } from "@/app/api/reports/runs/route";
import { GET as statementRuns } from "@/app/api/statements/runs/route";
import { AppError, RUN_FAILED_MESSAGE } from "@/lib/errors";
import type { BrokerClient } from "@/server/broker/client";
import type { AppDb } from "@/server/db";
import type { Engine } from "@/server/db/engine";
import { queueRun } from "@/server/reconciliation/queries";
import { runReconciliations } from "@/server/reconciliation/run";
import { runReports } from "@/server/reports/run";
import { requestStatementRun, runStatementRuns } from "@/server/statements/bulk";
import { session } from "../helpers/desk-session";
import { testEngines, withProcessDb } from "../helpers/engines";
import { sessionPerson } from "../helpers/staff";

/**
 * The three run histories (the statements' zips, the reconciliations, the scheduled reports) read the same way: newest
 * first, a page at a time, `?before=<run id>` for the next, `next` null at the oldest run. A run that failed shows
 * staff a safe message: an AppError's own, else a generic one, the error's text going to the log only. Both engines.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.9"));

const HISTORIES = [
  {
    name: "statements",
    route: statementRuns,
    url: "/api/statements/runs",
    page: 20,
    insert: `INSERT INTO brokerdesk.statement_runs (period_from, period_to, status, requested_by)
             SELECT '2026-10-01', '2026-10-31', 'done', 'ops@desk.test' FROM generate_series(1, $1) RETURNING id::int AS id`,
  },
  {
    name: "reconciliation",
    route: reconciliationRuns,
    url: "/api/reconciliation/runs",
    page: 10,
    insert: `INSERT INTO brokerdesk.reconciliation_runs (trigger, status) SELECT 'schedule', 'failed' FROM generate_series(1, $1)
             RETURNING id::int AS id`,
  },
  {
    name: "reports",
    route: reportRuns,
    url: "/api/reports/runs",
    page: 30,
    insert: `INSERT INTO brokerdesk.report_runs (schedule_name, kind, format, slot, report_day, trigger, status)
             SELECT 'Paged', 'alerts', 'csv', now() - make_interval(mins => n), current_date, 'schedule', 'failed'
               FROM generate_series(1, $1) AS n RETURNING id::int AS id`,
  },
];

for (const engine of testEngines()) {
  describe(`run histories (${engine.name})`, () => {
    let db: AppDb;
    withProcessDb(engine, (d) => (db = d));

    for (const h of HISTORIES) {
      it(`${h.name}: newest first, a page at a time, to the oldest run`, async () => {
        const { rows } = await db.engine.query<{ id: number }>(h.insert, [h.page + 3]);
        const ids = rows.map((r) => r.id).sort((a, b) => b - a);
        session.staff = sessionPerson(1, "admin");
        const get = (query: string) => h.route(new Request(`http://desk.test${h.url}${query}`), { params: Promise.resolve({}) });
        const read = async (query: string): Promise<{ runs: { id: number }[]; next: number | null }> => (await get(query)).json();

        const first = await read("");
        expect(first.runs.map((r) => r.id)).toEqual(ids.slice(0, h.page));
        expect(first.next).toBe(ids[h.page - 1]);
        const rest = await read(`?before=${first.next}`);
        expect(rest.runs.map((r) => r.id)).toEqual(ids.slice(h.page));
        expect(rest.next).toBeNull();
        expect((await get("?before=newest")).status).toBe(400);
      });
    }

    /** The engine, with the statements matching `sql` failing with `error` (outside transactions). */
    const failingOn = (engine: Engine, sql: RegExp, error: Error): Engine =>
      new Proxy(engine, {
        get(target, key) {
          if (key === "query")
            return (text: string, params?: unknown[]) => (sql.test(text) ? Promise.reject(error) : target.query(text, params));
          const value = Reflect.get(target, key) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    const internal = () => new Error('relation "brokerdesk.x" does not exist');
    const own = () => new AppError("RUN_REFUSED", "internal detail for the log", "The books were closed for the day.");
    const logged = (log: ReturnType<typeof vi.fn>) => JSON.stringify(log.mock.calls);

    /** The newest runs' errors as the history serves them, newest first. */
    async function listed(route: (typeof HISTORIES)[number]["route"], url: string, field: "lastError" | "error", n: number) {
      session.staff = sessionPerson(1, "admin");
      const response = await route(new Request(`http://desk.test${url}`), { params: Promise.resolve({}) });
      const body = (await response.json()) as { runs: Record<string, unknown>[] };
      return body.runs.slice(0, n).map((r) => r[field]);
    }

    it("statements: a run failing on an internal error lists a safe message, the error in the log; an AppError's message as is", async () => {
      const log = vi.fn();
      const signal = new AbortController().signal;
      const period = { from: "2026-09-01", to: "2026-09-30" };
      const accounts = /^SELECT account_id FROM brokerdesk\.activity_sweeps/; // the run's accounts, read first
      await requestStatementRun(db.engine, period, "ops@desk.test");
      await runStatementRuns(failingOn(db.engine, accounts, internal()), signal, log);
      await requestStatementRun(db.engine, period, "ops@desk.test");
      await runStatementRuns(failingOn(db.engine, accounts, own()), signal, log);
      expect(await listed(statementRuns, "/api/statements/runs", "lastError", 2)).toEqual([
        "The books were closed for the day.",
        RUN_FAILED_MESSAGE,
      ]);
      expect(logged(log)).toContain("relation");
    });

    it("reports: a run failing on an internal error lists a safe message, the error in the log; an AppError's message as is", async () => {
      const log = vi.fn();
      const signal = new AbortController().signal;
      const { rows } = await db.engine.query<{ id: string }>(
        `INSERT INTO brokerdesk.report_schedules (name, kind, format, recipients, cadence, at_time, enabled, created_by)
         VALUES ('Failing', 'alerts', 'csv', '{ops@desk.test}', 'daily', '00:01', false, 'admin@desk.test') RETURNING id::text`,
      );
      const run = (scheduleId: string | null, minutes: number) =>
        db.engine.query(
          `INSERT INTO brokerdesk.report_runs (schedule_id, schedule_name, kind, format, slot, report_day, trigger, status)
           VALUES ($1::bigint, 'Failing', 'alerts', 'csv', now() + make_interval(mins => $2), current_date, 'request', 'queued')`,
          [scheduleId, minutes],
        );
      await run(rows[0]!.id, 1);
      await runReports({ engine: failingOn(db.engine, /report_schedules WHERE id = \$1/, internal()), log }, signal);
      // A run whose schedule is gone fails with the desk's own words.
      await run(null, 2);
      await runReports({ engine: db.engine, log }, signal);
      expect(await listed(reportRuns, "/api/reports/runs", "error", 2)).toEqual([
        "The schedule was deleted before its run.",
        RUN_FAILED_MESSAGE,
      ]);
      expect(logged(log)).toContain("relation");
    });

    it("reconciliation: a run failing on an internal error lists a safe message, the error in the log; an AppError's message as is", async () => {
      const log = vi.fn();
      const signal = new AbortController().signal;
      const failing = (error: Error) => {
        const client = {
          listVirtualAccounts: () => Promise.reject(error),
        } as unknown as BrokerClient;
        return { engine: db.engine, client, log, sweep: { engine: db.engine, client } };
      };
      await queueRun(db.engine, "request", "ops@desk.test");
      await expect(runReconciliations(failing(internal()), signal)).rejects.toThrow(/relation/);
      await queueRun(db.engine, "request", "ops@desk.test");
      await expect(runReconciliations(failing(own()), signal)).rejects.toThrow(AppError);
      expect(await listed(reconciliationRuns, "/api/reconciliation/runs", "lastError", 2)).toEqual([
        "The books were closed for the day.",
        RUN_FAILED_MESSAGE,
      ]);
      expect(logged(log)).toContain("relation");
    });
  });
}
