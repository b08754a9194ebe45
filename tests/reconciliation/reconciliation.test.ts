import Decimal from "decimal.js";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { newClientId } from "@/lib/ids";
import { assignReconciliationBreak, closeReconciliationBreak, commentReconciliationBreak } from "@/server/actions/reconciliation";
import { getBreak } from "@/server/reconciliation/breaks";
import { JOBS, type JobDeps } from "@/server/jobs/definitions";
import { getRun, listBreaks, listRuns, queueRun } from "@/server/reconciliation/queries";
import { runReconciliations, type ReconcileDeps } from "@/server/reconciliation/run";
import { masterAccountId } from "@/server/sandbox/seed";
import { testEngines } from "../helpers/engines";
import { newStaff } from "../helpers/staff";
import { until, useProcessFixture, type EventsFixture } from "../events/helpers";
import { ACCOUNTS } from "../sandbox/trading-helpers";

/**
 * End-of-day reconciliation against a started sandbox (its seeded accounts, balances and activity history): the books
 * agree with the upstream to the cent at first; a balance changed behind the desk's back (the sandbox's control API
 * moves cash with no activity and no event) is exactly one break, with its difference, while a journal a customer made
 * directly at the upstream is none; the break stays one over later runs; closing it is audited.
 */
const session = vi.hoisted(() => ({ staff: null as null | { id: string; email: string; name: string; role: string } }));
vi.mock("@/server/auth/guard", async () => (await import("../helpers/session-guard")).sessionGuard(session));
vi.mock("@/server/auth/request-meta", () => ({ requestMeta: async () => ({ clientIp: "10.0.0.9", userAgent: "vitest" }) }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

for (const engine of testEngines()) {
  describe(`end-of-day reconciliation on ${engine.name}`, () => {
    const fixture = useProcessFixture(engine);
    let f: EventsFixture;
    let deps: ReconcileDeps;

    beforeAll(() => {
      f = fixture();
      deps = {
        engine: f.db.engine,
        client: f.client,
        sweep: { engine: f.db.engine, client: f.client, rate: 200, settleMs: 300 },
      };
    });

    async function reconcile(by = "tests@example.test") {
      const queued = await queueRun(f.db.engine, "request", by);
      expect(await runReconciliations(deps, new AbortController().signal)).toEqual({ again: false, runs: 1 });
      const run = await getRun(f.db.engine, queued.id);
      expect(run?.status).toBe("done");
      return run!;
    }
    const openBreaks = async () => (await listBreaks(f.db.engine, { status: "open", limit: 200 })).rows;

    it(
      "the seeded books agree with the upstream: every account compared, no break, the master beside its accounts",
      { timeout: 120_000 },
      async () => {
        const run = await reconcile();
        expect(run.summary).toMatchObject({ found: 0, opened: 0, open: 0, notCompared: [] });
        expect(run.summary!.compared).toBe(run.summary!.accounts);
        expect(run.summary!.accounts).toBeGreaterThan(40);
        const usd = run.summary!.omnibus.find((l) => l.currency === "USD")!;
        expect(usd.masterDesk).toBe(usd.masterUpstream);
        expect(usd.virtualDesk).toBe(usd.virtualUpstream);
        expect(Number(usd.masterUpstream)).toBeGreaterThan(0);
        expect(await openBreaks()).toEqual([]);
      },
    );

    it(
      "a balance changed behind the desk's back is exactly one break; a customer's own journal is none; later runs keep it one; closing is audited",
      { timeout: 180_000 },
      async () => {
        // Outside the desk, both: a customer's journal at the upstream (with its activity), and an unrecorded correction.
        const journal = await f.api.call("POST", "/broker/journals/cash-journals/create", {
          body: {
            client_request_id: newClientId("cust"),
            from_account: masterAccountId(),
            to_account: ACCOUNTS.margin,
            currency: "USD",
            amount: "250.00",
          },
        });
        expect(journal.status).toBe(200);
        const adjusted = await f.api.call("POST", "/sandbox/balances/adjust", {
          body: { account_id: ACCOUNTS.cash, currency: "HKD", amount: "-123.45" },
        });
        expect(adjusted.status).toBe(200);

        const second = await reconcile();
        expect(second.summary).toMatchObject({ found: 1, opened: 1, open: 1, notCompared: [] });
        const [only] = await openBreaks();
        expect(await openBreaks()).toHaveLength(1);
        expect(only).toMatchObject({
          kind: "cash",
          accountId: ACCOUNTS.cash,
          currency: "HKD",
          difference: "-123.45",
          firstRunId: second.id,
          lastRunId: second.id,
        });
        expect(new Decimal(only.upstreamValue!).minus(only.deskValue!).toFixed(2)).toBe("-123.45");
        expect(only.summary).toContain("difference -123.45 HKD");

        const third = await reconcile();
        expect(third.summary).toMatchObject({ found: 1, opened: 0, open: 1 });
        expect(await openBreaks()).toEqual([expect.objectContaining({ id: only.id, firstRunId: second.id, lastRunId: third.id })]);

        const operations = await newStaff(f.db, "operations", "recon.test");
        const compliance = await newStaff(f.db, "compliance", "recon.test");
        const support = await newStaff(f.db, "support", "recon.test");
        session.staff = operations;
        // Assigned only to someone whose role works breaks.
        const refused = await assignReconciliationBreak({ breakId: only.id, assignee: support.email });
        expect(refused).toMatchObject({ ok: false, code: "NOT_AN_ASSIGNEE", fieldErrors: { assignee: expect.any(String) } });
        expect(await assignReconciliationBreak({ breakId: only.id, assignee: compliance.email })).toMatchObject({
          ok: true,
          data: { assignedTo: compliance.email },
        });
        session.staff = compliance;
        expect(
          await commentReconciliationBreak({ breakId: only.id, body: "The upstream booked a correction we never got." }),
        ).toMatchObject({
          ok: true,
        });
        expect(await closeReconciliationBreak({ breakId: only.id, resolution: "x" })).toMatchObject({
          ok: false,
          fieldErrors: { resolution: expect.stringContaining("at least 3") },
        });
        const closed = await closeReconciliationBreak({
          breakId: only.id,
          resolution: "Correction confirmed with the upstream; books adjusted.",
        });
        expect(closed).toMatchObject({ ok: true, data: { status: "closed", closedBy: compliance.email } });
        expect(await closeReconciliationBreak({ breakId: only.id, resolution: "Again" })).toMatchObject({
          ok: false,
          code: "BREAK_CLOSED",
        });
        // Support reads nothing of it and changes nothing.
        session.staff = support;
        expect(await commentReconciliationBreak({ breakId: only.id, body: "not mine to say" })).toMatchObject({
          ok: false,
          code: "FORBIDDEN",
        });

        const detail = await getBreak(f.db.engine, only.id);
        expect(detail.comments).toEqual([
          expect.objectContaining({ author: compliance.email, body: "The upstream booked a correction we never got." }),
        ]);
        const { rows } = await f.db.engine.query<{ action: string; actor_email: string; outcome: string; target: string; input: unknown }>(
          `SELECT action, actor_email, outcome, target, input FROM brokerdesk.audit_entries
          WHERE action LIKE 'reconciliation.break%' AND actor_email = ANY($1::text[]) ORDER BY seq`,
          [[operations.email, compliance.email, support.email]],
        );
        expect(rows.map((r) => [r.action, r.actor_email, r.outcome])).toEqual([
          ["reconciliation.break_assign", operations.email, "failure"],
          ["reconciliation.break_assign", operations.email, "success"],
          ["reconciliation.break_comment", compliance.email, "success"],
          ["reconciliation.break_close", compliance.email, "failure"],
          ["reconciliation.break_close", compliance.email, "success"],
          ["reconciliation.break_close", compliance.email, "failure"],
          ["reconciliation.break_comment", support.email, "denied"],
        ]);
        expect(JSON.stringify(rows[4].input)).toContain("Correction confirmed with the upstream");

        // The difference lasts: the next run opens a new break for it (the closed one stays as it was).
        const fourth = await reconcile();
        expect(fourth.summary).toMatchObject({ found: 1, opened: 1, open: 1 });
        const [reopened] = await openBreaks();
        expect(reopened.id).not.toBe(only.id);
        expect((await getBreak(f.db.engine, only.id)).status).toBe("closed");
      },
    );

    it(
      "the job's scheduled send queues a run and works it to its summary; a send while one is open queues none",
      { timeout: 120_000 },
      async () => {
        const before = (await listRuns(f.db.engine, { limit: 1 })).runs[0]?.id ?? 0;
        const jobs = await f.jobs({ jobs: [JOBS.eodReconciliation] });
        try {
          // As the cron sends it: no data.
          await jobs.send(JOBS.eodReconciliation.name, {});
          await until(async () => {
            const [latest] = (await listRuns(f.db.engine, { limit: 1 })).runs;
            return latest && latest.id > before && latest.status === "done";
          }, 90_000);
          const [run] = (await listRuns(f.db.engine, { limit: 1 })).runs;
          expect(run).toMatchObject({ trigger: "schedule", requestedBy: null, status: "done" });
          expect(run.id).toBeGreaterThan(before);
          expect(run.summary?.compared).toBe(run.summary?.accounts);
        } finally {
          await jobs.stop();
        }
        // A send made while a run is open waits behind it (the queue is stately) and is answered by it once worked:
        // it queues none. A send made after that run finished queues its own. The job's own run, with the send time
        // the runtime gives it, so the order of the two is the test's and not the scheduler's.
        const jobDeps: JobDeps = {
          db: f.db,
          client: f.client,
          log: () => undefined,
          backfillDays: 30,
          reconcileAfterMs: 300_000,
          reconcileIntervalMs: 3_600_000,
          activities: { intervalMs: 3_600_000, rate: 200, settleMs: 0 },
        };
        const dbNow = async () => (await f.db.engine.query<{ now: Date }>("SELECT now() AS now")).rows[0].now.toISOString();
        const work = (sentAt: string) => JOBS.eodReconciliation.run({ sentAt }, jobDeps, new Map(), new AbortController().signal);
        const requested = await queueRun(f.db.engine, "request", "tests@example.test");
        const sentWhileOpen = await dbNow();
        expect(await runReconciliations(deps, new AbortController().signal)).toEqual({ again: false, runs: 1 });
        expect(await work(sentWhileOpen)).toEqual({ again: false, output: { runs: 0 } });
        const [latest, previous] = (await listRuns(f.db.engine, { limit: 2 })).runs;
        expect(latest).toMatchObject({ id: requested.id, trigger: "request", status: "done" });
        expect(previous.trigger).toBe("schedule");

        expect(await work(await dbNow())).toEqual({ again: false, output: { runs: 1 } });
        const [next] = (await listRuns(f.db.engine, { limit: 1 })).runs;
        expect(next).toMatchObject({ trigger: "schedule", status: "done" });
        expect(next.id).toBeGreaterThan(requested.id);
      },
    );
  });
}
