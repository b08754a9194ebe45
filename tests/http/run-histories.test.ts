import { describe, expect, it, vi } from "vitest";
import { GET as reconciliationRuns } from "@/app/api/reconciliation/runs/route";
import { GET as reportRuns } from "@/app/api/reports/runs/route";
import { GET as statementRuns } from "@/app/api/statements/runs/route";
import type { AppDb } from "@/server/db";
import { session } from "../helpers/desk-session";
import { testEngines, withProcessDb } from "../helpers/engines";
import { sessionPerson } from "../helpers/staff";

/**
 * The three run histories (the statements' zips, the reconciliations, the scheduled reports) read the same way: newest
 * first, a page at a time, `?before=<run id>` for the next, `next` null at the oldest run. Both engines.
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
  });
}
