import { beforeAll, describe, expect, it, vi } from "vitest";
import { newClientId } from "@/lib/ids";
import { isPendingApproval } from "@/lib/errors";
import { approveApprovalAction, checkApprovalExecutionAction, saveApprovalRuleAction } from "@/server/actions/approvals";
import { createCashJournalAction } from "@/server/actions/movements";
import { getApproval } from "@/server/approvals/requests";
import { NOT_SENT_MESSAGE, recoverStuckExecutions } from "@/server/approvals/recover";
import { STUCK_AFTER_MS } from "@/server/approvals/liveness";
import { markAlive } from "@/server/approvals/queries/requests";
import { JOBS } from "@/server/jobs/definitions";
import { startJobs } from "@/server/jobs/runtime";
import { listAudit } from "@/server/audit/list";
import { setBrokerForTests } from "@/server/broker";
import type { BrokerClient } from "@/server/broker/client";
import { setDbForTests, type AppDb } from "@/server/db";
import type { Engine, Tx } from "@/server/db/engine";
import { masterAccountId } from "@/server/sandbox/seed";
import { testEngines } from "../helpers/engines";
import { until, useProcessFixture, type EventsFixture } from "../events/helpers";
import { ACCOUNTS } from "../sandbox/trading-helpers";
import { as, session } from "../helpers/desk-session";
import { approvalRule, fourEyesStaff } from "../helpers/four-eyes";
import { probeDeps } from "../jobs/probe";

/**
 * Issue 24, item 4: the app killed between an approval's claim and its send. The process is stopped in place (from
 * its crash point on, none of its statements ever returns), and the recovery, run as the minute job or an admin
 * runs it, settles the request once from the upstream's answer: never sent twice, the trail holding the claim, the
 * start and the recovery, naming maker and checker.
 */
vi.mock("@/server/auth/guard", async () => (await import("../helpers/desk-session")).mockedGuard);
vi.mock("@/server/auth/request-meta", async () => (await import("../helpers/desk-session")).mockedRequestMeta("10.0.0.9"));
vi.mock("next/cache", async () => (await import("../helpers/desk-session")).mockedNextCache);

const { MAKER, CHECKER, ADMIN } = fourEyesStaff(11);
const CREATE = "POST /broker/journals/cash-journals/create";

/** A process that stops: once `stopped`, no statement it makes ever returns (nor does the call that stopped it). */
interface Crash {
  stopped: boolean;
  /** Stop when a transaction that ran a statement matching this commits. */
  afterCommitOf?: RegExp;
}
const never = () => new Promise<never>(() => undefined);

function crashingDb(db: AppDb, crash: Crash): AppDb {
  const real = db.engine;
  const engine: Engine = {
    kind: real.kind,
    driver: real.driver,
    close: () => real.close(),
    query: (sql, params) => (crash.stopped ? never() : real.query(sql, params)),
    exec: (sql) => (crash.stopped ? never() : real.exec(sql)),
    transaction: async (fn) => {
      if (crash.stopped) return never();
      let stopAfter = false;
      const result = await real.transaction((tx) =>
        fn({
          query: (sql, params) => {
            if (crash.afterCommitOf?.test(sql)) stopAfter = true;
            return tx.query(sql, params);
          },
          exec: (sql) => tx.exec(sql),
        } satisfies Tx),
      );
      if (!stopAfter) return result;
      crash.stopped = true;
      return never();
    },
  };
  return { engine };
}

for (const engine of testEngines()) {
  describe(`a crash in the four-eyes window on ${engine.name}`, () => {
    const fixture = useProcessFixture(engine);
    let f: EventsFixture;

    beforeAll(async () => {
      f = fixture();
      session.staff = ADMIN;
      expect(
        await saveApprovalRuleAction(approvalRule({ action: "movements.cash_journal", currency: "USD", threshold: "10000" })),
      ).toMatchObject({ ok: true });
    });

    const calls = async () => ((await f.api.call("GET", "/sandbox/calls")).body as { data: Record<string, number> }).data[CREATE] ?? 0;
    const sandboxRequests = async (crid: string) =>
      Number(
        (await f.db.engine.query<{ n: string }>("SELECT count(*)::text AS n FROM sandbox.requests WHERE client_request_id = $1", [crid]))
          .rows[0].n,
      );
    const movement = async (crid: string) =>
      (
        await f.db.engine.query<{ status: string }>(
          "SELECT status FROM brokerdesk.money_movements WHERE kind = 'CASH_JOURNAL' AND client_request_id = $1",
          [crid],
        )
      ).rows[0];
    const trail = async (id: string) =>
      (await listAudit(f.db.engine, { target: `approval:${id}`, limit: 50 })).rows.map((e) => ({
        action: e.action,
        outcome: e.outcome,
        actor: e.actorEmail,
        input: e.input as Record<string, unknown>,
      }));
    async function hold(amount: string): Promise<{ id: string; crid: string }> {
      const request = {
        client_request_id: newClientId("cj"),
        from_account: masterAccountId(),
        to_account: ACCOUNTS.margin,
        currency: "USD" as const,
        amount,
      };
      const r = await as(MAKER, () => createCashJournalAction(request));
      if (!r.ok || !isPendingApproval(r.data)) throw new Error(`not held: ${JSON.stringify(r)}`);
      return { id: r.data.approvalId, crid: request.client_request_id };
    }
    /** CHECKER's approval in a process that crashes as `crash` says; resolves once it has stopped. */
    async function approveAndCrash(id: string, crash: Crash): Promise<void> {
      setDbForTests(crashingDb(f.db, crash));
      void as(CHECKER, () => approveApprovalAction({ id }));
      try {
        await until(() => crash.stopped, 20_000, "the process stopped");
      } finally {
        setDbForTests(f.db);
      }
    }

    it("stopped after the claim, before the send: the claim is audited, and the minute's recovery fails it once, nothing sent", async () => {
      const { id, crid } = await hold("50000.00");
      await f.api.call("POST", "/sandbox/calls/reset");
      await approveAndCrash(id, { stopped: false, afterCommitOf: /SET status = 'executing'/ });

      expect((await getApproval(f.db, id)).status).toBe("executing");
      const claimed = await trail(id);
      expect(claimed).toContainEqual({
        action: "approvals.claim",
        outcome: "success",
        actor: CHECKER.email,
        input: expect.objectContaining({ approvalId: id, maker: MAKER.email, checker: CHECKER.email }),
      });
      // A live execution is not taken for a dead one: within the stuck limit nothing is checked.
      expect(await recoverStuckExecutions(f.db)).toBe(0);
      // The minute job's run once the limit has passed with no beat.
      const later = new Date(Date.now() + STUCK_AFTER_MS + 1_000);
      expect(await recoverStuckExecutions(f.db, { now: later })).toBe(1);
      expect(await recoverStuckExecutions(f.db, { now: later })).toBe(0);
      expect(await getApproval(f.db, id)).toMatchObject({ status: "failed", error: NOT_SENT_MESSAGE, checkingSince: null });
      expect(await calls()).toBe(0);
      expect(await sandboxRequests(crid)).toBe(0);
      expect(await movement(crid)).toMatchObject({ status: "FAILED" });
      const recovered = (await trail(id)).filter((e) => e.action === "approvals.recover");
      expect(recovered).toEqual([
        expect.objectContaining({ outcome: "failure", input: expect.objectContaining({ maker: MAKER.email, checker: CHECKER.email }) }),
      ]);
    }, 60_000);

    it("stopped after the send, before its outcome: shown as checking the upstream; an admin's check settles it executed, sent once", async () => {
      const { id, crid } = await hold("50001.00");
      await f.api.call("POST", "/sandbox/calls/reset");
      const crash: Crash = { stopped: false };
      // The upstream answers, then the process dies before it writes a thing more.
      const client = new Proxy(f.client, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (key !== "createCashJournal" || typeof value !== "function") return value;
          return async (...args: unknown[]) => {
            const answer = (await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)) as unknown;
            crash.stopped = true;
            return answer;
          };
        },
      }) as BrokerClient;
      setBrokerForTests(client);
      try {
        await approveAndCrash(id, crash);
      } finally {
        setBrokerForTests(f.client);
      }
      expect(await calls()).toBe(1);
      expect((await trail(id)).map((e) => e.action)).toEqual(expect.arrayContaining(["approvals.claim", "approvals.execute"]));
      // Its process beat a moment ago: the admin's check is refused, the execution may still be under way.
      expect(await as(ADMIN, () => checkApprovalExecutionAction({ id }))).toMatchObject({ ok: false, code: "STILL_EXECUTING" });
      // No beat for longer than the limit: the page says it is checking the upstream, and since when.
      await f.db.engine.query("UPDATE brokerdesk.approval_requests SET alive_at = now() - interval '1 minute' WHERE id = $1", [id]);
      const stuck = await getApproval(f.db, id);
      expect(stuck.status).toBe("executing");
      expect(Date.parse(stuck.checkingSince ?? "")).toBeLessThanOrEqual(Date.now());
      expect(await as(CHECKER, () => checkApprovalExecutionAction({ id }))).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(await as(ADMIN, () => checkApprovalExecutionAction({ id }))).toMatchObject({ ok: true, data: { status: "executed" } });
      expect(await getApproval(f.db, id)).toMatchObject({ status: "executed", error: null, checkingSince: null });
      expect(await recoverStuckExecutions(f.db, { now: new Date(Date.now() + STUCK_AFTER_MS + 1_000) })).toBe(0);
      expect(await calls()).toBe(1);
      expect(await sandboxRequests(crid)).toBe(1);
      const entries = await trail(id);
      expect(entries.filter((e) => e.action === "approvals.recover")).toEqual([
        expect.objectContaining({ outcome: "success", input: expect.objectContaining({ maker: MAKER.email, checker: CHECKER.email }) }),
      ]);
      expect(entries).toContainEqual(expect.objectContaining({ action: "approvals.check", outcome: "success", actor: ADMIN.email }));
    }, 60_000);

    it("found by the job system within seconds of the limit, not at the next minute: from the claim's notice, and again while it beats", async () => {
      // The expiry job without its minute's schedule: what finds the stopped executions here is the claim's notice
      // and the job's own follow-up. A 3 s limit stands for the 30 s one: beats 0.4 s apart leave 2.6 s for a stall of
      // this process (the test and the job share it) before a beating execution could count as stopped.
      const jobs = await startJobs({
        deps: { ...probeDeps(f.db), client: f.client, stuckAfterMs: 3_000 },
        jobs: [{ ...JOBS.approvalsExpiry, schedule: undefined }],
        pollingIntervalSeconds: 0.5,
      });
      const status = async (id: string) => (await getApproval(f.db, id)).status;
      await f.api.call("POST", "/sandbox/calls/reset");
      try {
        // Stopped right after the claim: no beat ever.
        const first = await hold("50000.00");
        await approveAndCrash(first.id, { stopped: false, afterCommitOf: /SET status = 'executing'/ });
        await until(async () => (await status(first.id)) === "failed", 30_000, "the first stopped execution settled");

        // Stopped after beating for a while: not taken for dead while it beats (the job looks, finds it alive, and
        // comes back when it could count as stopped), settled once the beats end.
        const second = await hold("50000.00");
        await approveAndCrash(second.id, { stopped: false, afterCommitOf: /SET status = 'executing'/ });
        // Beating for 5.2 s: past the moment a job blind to the beats would settle it (the limit, a second, a poll).
        for (let beat = 0; beat < 13; beat++) {
          await markAlive(f.db.engine, second.id);
          await new Promise((r) => setTimeout(r, 400));
          expect(await status(second.id)).toBe("executing");
        }
        await until(async () => (await status(second.id)) === "failed", 30_000, "the second stopped execution settled");
        expect(await calls()).toBe(0);
      } finally {
        await jobs.stop();
      }
    });
  });
}
