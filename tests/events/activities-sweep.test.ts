import Decimal from "decimal.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sweepAccount, wireTime, type AccountSweep } from "@/server/activities/account-window";
import { activitiesFreshness } from "@/server/activities/freshness";
import { sweepActivities, type SweepDeps } from "@/server/activities/sweep";
import { paceOf } from "@/server/activities/sweep-deps";
import { requestActivitiesSweep, resetAccountSweep } from "@/server/activities/sweep-requests";
import type { Engine } from "@/server/db/engine";
import { listActivityPage, liveActivityPage } from "@/server/activities/explorer";
import type { BrokerClient } from "@/server/broker/client";
import { BrokerError } from "@/server/broker/errors";
import { BROKER_ERROR_MESSAGES } from "@/lib/broker-errors";
import { RUN_FAILED_MESSAGE } from "@/lib/errors";
import { onChange, type ChangeNotice } from "@/server/notices/listen";
import { JOBS } from "@/server/jobs/definitions";
import { engines, masterAccountId, seedAccountId } from "../sandbox/fixture";
import { barrier } from "../helpers/barrier";
import { startEventsFixture, until, type EventsFixture } from "./helpers";
import { sandboxBroker } from "../helpers/sandbox-broker";

/**
 * The activities sweep against the sandbox: the desk's copy (brokerdesk.activities) ends equal to the sandbox's
 * table (both schemas live in the one test database), counted per currency with the sandbox's totals endpoint too;
 * upstream calls are counted with GET /sandbox/calls.
 */
const LIST = "GET /broker/activities/cash-activities/list";
const ACCOUNTS_LIST = "GET /broker/accounts/virtual-accounts/list";
const SEEDED_ACCOUNTS = 40;
const ALL = SEEDED_ACCOUNTS + 1; // and the master account

type Page = Awaited<ReturnType<BrokerClient["listAccountActivities"]>>;
type ListInput = Parameters<BrokerClient["listAccountActivities"]>[0];

describe.each(engines)("activities sweep ($name)", (te) => {
  let f: EventsFixture;
  let client: BrokerClient;
  beforeAll(async () => {
    f = await startEventsFixture(te);
    // The client's own budget out of the way: the sweep's pacing is what is measured.
    client = sandboxBroker(f.sb.url, { timeoutMs: 5000, rateLimits: { account: { limit: 1000, windowMs: 1000 } } });
  }, 60_000);
  afterAll(async () => f?.close());
  // Each test starts from a desk that has swept nothing (the sandbox keeps what earlier tests generated, which the
  // copy is always compared against): a test states the sweeping it needs, so it runs alone or in any order.
  beforeEach(async () => {
    await f.api.call("POST", "/sandbox/faults/clear");
    await f.db.engine.exec(`TRUNCATE brokerdesk.activities, brokerdesk.activity_sweeps;
      DELETE FROM brokerdesk.sync_runs WHERE job = 'activities';
      UPDATE brokerdesk.event_stream SET activities_sweep_requested_at = NULL, activities_sweep_requested_by = NULL`);
  });

  const q = async <T>(sql: string, params: unknown[] = []) => (await f.db.engine.query<T>(sql, params)).rows;
  const deps = (o: Partial<SweepDeps> = {}): SweepDeps => ({ engine: f.db.engine, client, rate: 200, settleMs: 0, ...o });
  /** A client whose activity listing is observed (and may act) after each answer. */
  const watched = (after: (n: number, input: ListInput, page: Page) => Promise<void> | void, inputs: ListInput[] = []): BrokerClient => ({
    ...client,
    listAccountActivities: async (input, ro) => {
      inputs.push(input);
      const page = await client.listAccountActivities(input, ro);
      await after(inputs.length, input, page);
      return page;
    },
  });
  const calls = async () => (await f.api.call("GET", "/sandbox/calls")).body.data as Record<string, number>;
  const resetCalls = () => f.api.call("POST", "/sandbox/calls/reset");
  const generate = async (body: Record<string, unknown>) => {
    const r = await f.api.call("POST", "/sandbox/activities/generate", { body });
    expect(r.status).toBe(200);
    return r.body.inserted as number;
  };
  /** A full round: every account's copy up to date, each one's next pass one page. */
  const caughtUp = async () => expect(await sweepActivities(deps())).toMatchObject({ complete: true, errors: 0 });
  const fetchedOf = async (account: string) =>
    Number(
      (await q<{ fetched: string }>("SELECT fetched::text FROM brokerdesk.activity_sweeps WHERE account_id = $1", [account]))[0].fetched,
    );
  const sweptUntil = async (account: string) =>
    (await q<{ t: Date | null }>("SELECT swept_until AS t FROM brokerdesk.activity_sweeps WHERE account_id = $1", [account]))[0]?.t;
  /**
   * Sweeps the account up to date, then has the sandbox write `count` activities after its swept_until (up to now):
   * its next pass reads exactly those. Returns the account's rows read so far.
   */
  async function newActivities(account: string, count: number): Promise<number> {
    await sweepAccount(deps(), { account_id: account });
    const before = await fetchedOf(account);
    await generateAfterSwept(account, count);
    return before;
  }
  /** Has the sandbox write `count` activities of the account between its swept_until and now. */
  async function generateAfterSwept(account: string, count: number) {
    const from = (await sweptUntil(account))!.getTime() + 1;
    expect(await generate({ account_id: account, count, start_time: wireTime(from), end_time: wireTime(Date.now()) })).toBe(count);
  }

  /** The copy equals the sandbox's activities up to `until` (all accounts, or one): same rows, same values. */
  async function expectCopyEqual(until: Date, account?: string) {
    const scope = account ? "AND account_id = $2" : "";
    const params = account ? [until, account] : [until];
    const sandbox = `SELECT account_id, id, activity_type, activity_sub_type, currency, round(net_amount, 2) AS net_amount, biz_time, trade_date, symbol, quantity
                       FROM sandbox.activities WHERE biz_time <= $1 ${scope}`;
    const desk = `SELECT account_id, id, activity_type, activity_sub_type, currency, net_amount, biz_time, trade_date, symbol, quantity
                    FROM brokerdesk.activities WHERE biz_time <= $1 ${scope}`;
    expect(await q(`(${sandbox}) EXCEPT (${desk}) LIMIT 5`, params)).toEqual([]);
    expect(await q(`(${desk}) EXCEPT (${sandbox}) LIMIT 5`, params)).toEqual([]);
    const [n] = await q<{ n: string }>(`SELECT count(*)::text AS n FROM sandbox.activities WHERE biz_time <= $1 ${scope}`, params);
    expect(Number(n.n)).toBeGreaterThan(0);
  }

  /** Per currency: the desk's count and net amount against the sandbox's totals endpoint. */
  async function expectTotalsEqual(until: Date) {
    const truth = (await f.api.call("GET", "/sandbox/activities/totals", { query: { end_time: wireTime(until.getTime()) } })).body.data as {
      currency: string;
      count: number;
      net_amount: string;
    }[];
    const desk = await q<{ currency: string; count: number; net_amount: string }>(
      "SELECT currency, count(*)::int AS count, sum(net_amount)::text AS net_amount FROM brokerdesk.activities WHERE biz_time <= $1 GROUP BY currency ORDER BY currency",
      [until],
    );
    expect(desk.map((r) => ({ currency: r.currency, count: Number(r.count), net_amount: new Decimal(r.net_amount).toFixed() }))).toEqual(
      truth,
    );
    expect(truth.length).toBeGreaterThan(0);
  }

  it("knows nothing before the first round: no 'as of'", async () => {
    expect(await activitiesFreshness(f.db.engine)).toEqual({
      asOf: null,
      accounts: 0,
      swept: 0,
      running: null,
      requestedAt: null,
      lastError: null,
    });
  });

  it("a first round copies every account's activities exactly, the master account's too, over several pages", async () => {
    // Older history on two accounts: several pages each.
    expect(
      await generate({
        account_id: seedAccountId(0),
        count: 450,
        start_time: "2026-01-01T00:00:00.000Z",
        end_time: "2026-02-01T00:00:00.000Z",
        activity_types: ["DEPOSIT", "WITHDRAW", "TRADE"],
      }),
    ).toBe(450);
    expect(
      await generate({
        account_id: seedAccountId(1),
        count: 201,
        start_time: wireTime(Date.now() - 30 * 86_400_000),
        end_time: wireTime(Date.now() - 86_400_000),
        currency: "HKD",
      }),
    ).toBe(201);
    await resetCalls();
    const round = await sweepActivities(deps(), { requestedBy: "test" });
    expect(round).toMatchObject({ complete: true, done: ALL, total: ALL, errors: 0, lastError: null });
    expect(round.fetched).toBeGreaterThan(651);
    expect(round.changed).toBe(round.fetched);
    const made = await calls();
    // One page of accounts; one page per account, and the extra pages of the two long histories (450 → 3, 201+ → 2).
    expect(made[ACCOUNTS_LIST]).toBe(1);
    expect(made[LIST]).toBeGreaterThanOrEqual(ALL + 3);
    const fresh = await activitiesFreshness(f.db.engine);
    expect(fresh).toMatchObject({ accounts: ALL, swept: ALL, running: null, lastError: null, asOf: expect.any(String) });
    const [min] = await q<{ t: Date }>("SELECT min(swept_until) AS t FROM brokerdesk.activity_sweeps");
    expect(fresh.asOf).toBe(new Date(min.t).toISOString());
    expect(await sweptUntil(masterAccountId())).toBeTruthy();
    await expectCopyEqual(new Date(fresh.asOf!));
    await expectTotalsEqual(new Date(fresh.asOf!));
    const [run] = await q<Record<string, unknown>>(
      "SELECT status, requested_by, done, total, errors FROM brokerdesk.sync_runs WHERE job = 'activities' ORDER BY id DESC LIMIT 1",
    );
    expect(run).toEqual({ status: "done", requested_by: "test", done: ALL, total: ALL, errors: 0 });
    // Only the sandbox's own types reach the copy raw: nothing was rewritten.
    expect(
      (await q<{ n: string }>("SELECT count(*)::text AS n FROM brokerdesk.activities WHERE activity_sub_type = 'STOCK_TRADE'"))[0].n,
    ).not.toBe("0");
  });

  it("a second round fetches only what is new, and tells the live channel which accounts changed", async () => {
    await caughtUp();
    const [a, b, c] = [seedAccountId(2), seedAccountId(3), seedAccountId(4)];
    const j = await f.api.op("createCashJournal", "resource", {
      body: { from_account: a, to_account: b, client_request_id: `sw-${Date.now()}`, amount: "7.25", currency: "USD" },
    });
    expect(j.body.status).toBe("COMPLETED");
    const from = (await sweptUntil(c))!.getTime() + 1;
    expect(await generate({ account_id: c, count: 450, start_time: wireTime(from), end_time: wireTime(Date.now()) })).toBe(450);
    const notices: ChangeNotice[] = [];
    const off = await onChange(f.db.engine, (n) => notices.push(n));
    await resetCalls();
    const round = await sweepActivities(deps());
    expect(round).toMatchObject({ complete: true, done: ALL, errors: 0, fetched: 452, changed: 452 });
    // One call per account, two more for the 450 new rows of one account (three pages of 200).
    expect(await calls()).toEqual({ [ACCOUNTS_LIST]: 1, [LIST]: ALL + 2 });
    // One notice per changed account, reaching the listener after the round returned (PostgreSQL): wait for all
    // three, and for the round's closing notice (its second naming no account), after which no notice of the round
    // is still on its way (delivered in commit order), so "exactly" holds.
    const named = () => new Set(notices.flatMap((n) => n.accounts));
    await until(
      () => [a, b, c].every((x) => named().has(x)) && notices.filter((n) => n.accounts.length === 0).length >= 2,
      20_000,
      "the round's notices",
    );
    off();
    expect(notices.every((n) => n.topics.includes("activities"))).toBe(true);
    expect(named()).toEqual(new Set([a, b, c]));
    const asOf = (await activitiesFreshness(f.db.engine)).asOf!;
    await expectCopyEqual(new Date(asOf));
    await expectTotalsEqual(new Date(asOf));
  });

  it("history written back-dated after an account's pass is read only when the account is read again from the start", async () => {
    const a = seedAccountId(9);
    await sweepAccount(deps(), { account_id: a });
    // Back-dated (a correction): before swept_until, so an ordinary pass does not see it.
    expect(
      await generate({
        account_id: a,
        count: 30,
        start_time: "2026-03-01T00:00:00.000Z",
        end_time: "2026-03-02T00:00:00.000Z",
        description: "late",
      }),
    ).toBe(30);
    const late = async () =>
      Number(
        (
          await q<{ n: string }>("SELECT count(*)::text AS n FROM brokerdesk.activities WHERE account_id = $1 AND description = 'late'", [
            a,
          ])
        )[0].n,
      );
    await sweepAccount(deps(), { account_id: a });
    expect(await late()).toBe(0);
    const { requestedAt } = await resetAccountSweep(f.db.engine, a, "reviewer@brokerdesk.test");
    expect((await activitiesFreshness(f.db.engine, a)).asOf).toBeNull();
    expect((await activitiesFreshness(f.db.engine)).requestedAt).toBe(requestedAt);
    const pass = await sweepAccount(deps(), { account_id: a });
    expect(pass.complete).toBe(true);
    expect(await late()).toBe(30);
    await expectCopyEqual(new Date(pass.sweptUntil!), a);
  });

  it("the explorer's live page for one account is the upstream's page; filters the upstream lacks narrow it; the copy holds the same rows", async () => {
    const a = seedAccountId(10);
    expect(
      await generate({
        account_id: a,
        count: 60,
        start_time: "2026-04-01T00:00:00.000Z",
        end_time: "2026-04-02T00:00:00.000Z",
        activity_types: ["DEPOSIT", "FEES"],
      }),
    ).toBe(60);
    await resetAccountSweep(f.db.engine, a, "t");
    await sweepAccount(deps(), { account_id: a });
    const filter = { account: a, type: "DEPOSIT", from: "2026-04-01", to: "2026-04-01" };
    const live = await liveActivityPage(client, f.db.engine, filter, { limit: 20 });
    expect(live.source).toBe("live");
    expect(live.rows).toHaveLength(20);
    expect(live.nextCursor).toBeTruthy();
    expect(live.rows.every((r) => r.type === "DEPOSIT" && r.accountId === a && r.bizTime.startsWith("2026-04-01"))).toBe(true);
    // The desk's copy pages the same rows in the same order.
    const desk = await listActivityPage(f.db.engine, { ...filter, source: "desk" }, { limit: 20 });
    expect(desk.rows.map((r) => [r.id, r.netAmount, r.bizTime])).toEqual(live.rows.map((r) => [r.id, r.netAmount, r.bizTime]));
    const next = await liveActivityPage(client, f.db.engine, filter, { limit: 20, cursor: live.nextCursor });
    expect(next.rows.map((r) => r.id).some((id) => live.rows.some((r) => r.id === id))).toBe(false);
    // An amount floor the upstream does not take narrows each page it answers.
    const big = await liveActivityPage(client, f.db.engine, { ...filter, min: "1000000000" }, { limit: 20 });
    expect(big.rows).toEqual([]);
    expect(big.nextCursor).toBeTruthy();
  });

  it("a pass aborted mid-window resumes from its cursor: every row read once, none missing", async () => {
    const a = seedAccountId(5);
    await sweepAccount(deps(), { account_id: a });
    const [before] = await q<{ fetched: string }>("SELECT fetched::text FROM brokerdesk.activity_sweeps WHERE account_id = $1", [a]);
    await generateAfterSwept(a, 1000);
    const ac = new AbortController();
    const cut = await sweepAccount(deps({ client: watched((n) => (n === 2 ? ac.abort() : undefined)) }), { account_id: a }, ac.signal);
    expect(cut).toMatchObject({ complete: false, pages: 2, fetched: 400 });
    const [mid] = await q<{ cursor: string | null; window_end: Date | null }>(
      "SELECT cursor, window_end FROM brokerdesk.activity_sweeps WHERE account_id = $1",
      [a],
    );
    expect(mid.cursor).toBeTruthy();
    expect(mid.window_end).toBeTruthy();
    // A restart: the pass goes on from the saved cursor, in the same window.
    const inputs: ListInput[] = [];
    const rest = await sweepAccount(deps({ client: watched(() => undefined, inputs) }), { account_id: a });
    expect(rest).toMatchObject({ complete: true, pages: 3, fetched: 600, sweptUntil: new Date(mid.window_end!).toISOString() });
    expect(inputs[0].cursor).toBe(mid.cursor);
    expect(inputs[0].end_time).toBe(wireTime(new Date(mid.window_end!).getTime()));
    // The listing's own time format, yyyy-MM-dd'T'HH:mm:ss.SSSZ, which the sandbox parses.
    expect(inputs[0].start_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
    const [after] = await q<{ fetched: string; cursor: string | null; window_end: Date | null }>(
      "SELECT fetched::text, cursor, window_end FROM brokerdesk.activity_sweeps WHERE account_id = $1",
      [a],
    );
    expect(Number(after.fetched) - Number(before.fetched)).toBe(1000);
    expect([after.cursor, after.window_end]).toEqual([null, null]);
    await expectCopyEqual(new Date(mid.window_end!), a);
  });

  it("two passes that read the account's state together: one opens the window and reads it, the other stops without writing", async () => {
    const a = seedAccountId(7);
    const before = await newActivities(a, 1000);
    // Neither goes past reading the account's state until both have read it: both find no window open.
    const bothRead = barrier(2);
    const engine: Engine = {
      ...f.db.engine,
      query: async (sql, params) => {
        const r = await f.db.engine.query(sql, params);
        if (sql.includes("INSERT INTO brokerdesk.activity_sweeps")) await bothRead();
        return r as never;
      },
    };
    const inputs: ListInput[] = [];
    const both = await Promise.all(
      [1, 2].map(() => sweepAccount(deps({ engine, client: watched(() => undefined, inputs) }), { account_id: a })),
    );
    expect(both.filter((s) => s.superseded)).toEqual([expect.objectContaining({ pages: 0, fetched: 0, complete: false })]);
    expect(both.find((s) => !s.superseded)).toMatchObject({ complete: true, pages: 5, fetched: 1000 });
    expect(inputs).toHaveLength(5);
    expect(await fetchedOf(a)).toBe(before + 1000);
    await expectCopyEqual((await sweptUntil(a))!, a);
  });

  it("a pass that starts while another is mid-window goes on from its cursor; each page is written once and the other stops", async () => {
    const a = seedAccountId(11);
    const before = await newActivities(a, 1000);
    // The first pass has written its first page and read its second when the second pass runs from start to end.
    let second: AccountSweep | undefined;
    const secondInputs: ListInput[] = [];
    const first = await sweepAccount(
      deps({
        client: watched(async (n) => {
          if (n === 2) second = await sweepAccount(deps({ client: watched(() => undefined, secondInputs) }), { account_id: a });
        }),
      }),
      { account_id: a },
    );
    // The second resumed the open window from the first one's cursor: pages 2 to 5.
    expect(second).toMatchObject({ complete: true, pages: 4, fetched: 800 });
    expect(secondInputs[0].cursor).toBeTruthy();
    // The first read page 2 too, but found the state moved on and wrote nothing of it.
    expect(first).toMatchObject({ superseded: true, complete: false, pages: 2, fetched: 200 });
    expect(await fetchedOf(a)).toBe(before + 1000);
    await expectCopyEqual((await sweptUntil(a))!, a);
  });

  it("'read this account again' during a pass stands: the pass stops at its next page and the account is read from the start", async () => {
    const a = seedAccountId(12);
    await newActivities(a, 1000);
    const cut = await sweepAccount(
      deps({
        client: watched(async (n) => (n === 2 ? void (await resetAccountSweep(f.db.engine, a, "reviewer@example.test")) : undefined)),
      }),
      { account_id: a },
    );
    expect(cut).toMatchObject({ superseded: true, complete: false, pages: 2 });
    expect(await q("SELECT swept_until, window_end, cursor FROM brokerdesk.activity_sweeps WHERE account_id = $1", [a])).toEqual([
      { swept_until: null, window_end: null, cursor: null },
    ]);
    const again = await sweepAccount(deps(), { account_id: a });
    expect(again).toMatchObject({ complete: true });
    await expectCopyEqual(new Date(again.sweptUntil!), a);
  });

  it("a pass cut by an upstream error resumes from its cursor; the error is recorded until then", async () => {
    const a = seedAccountId(6);
    await caughtUp(); // a round: the account's number is known for its error line
    await generateAfterSwept(a, 500);
    // After the first page, the next listing call fails (a 503 from the upstream).
    const failing = watched(async (n) => {
      if (n === 1)
        await f.api.call("POST", "/sandbox/faults", {
          body: { path_pattern: "/broker/activities/*", type: "ERROR", status: 503, count: 1 },
        });
    });
    await expect(sweepAccount(deps({ client: failing }), { account_id: a })).rejects.toMatchObject({ errorCode: "SERVICE_NOT_AVAILABLE" });
    const [mid] = await q<{ cursor: string | null; last_error: string | null; window_end: Date }>(
      "SELECT cursor, last_error, window_end FROM brokerdesk.activity_sweeps WHERE account_id = $1",
      [a],
    );
    expect(mid.cursor).toBeTruthy();
    // Staff read the failure's safe message (the log has the upstream's code and text).
    expect(mid.last_error).toBe(BROKER_ERROR_MESSAGES.SERVICE_NOT_AVAILABLE);
    expect((await activitiesFreshness(f.db.engine, a)).lastError).toBe(`VBD1000007: ${BROKER_ERROR_MESSAGES.SERVICE_NOT_AVAILABLE}`);
    const rest = await sweepAccount(deps(), { account_id: a });
    expect(rest).toMatchObject({ complete: true, pages: 2, fetched: 300 });
    expect((await activitiesFreshness(f.db.engine, a)).lastError).toBeNull();
    await expectCopyEqual(new Date(mid.window_end), a);
  });

  it("an activity exactly at a window's boundary is kept, whether it was there before the first pass or came after", async () => {
    const a = seedAccountId(8);
    const t = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const at = (ms: number, tag: number) =>
      generate({ account_id: a, count: 1, start_time: wireTime(ms), end_time: wireTime(ms + tag), activity_types: ["INTERESTS"] });
    // The account's place set so that the next window ends exactly at t.
    await sweepAccount(deps({ now: () => t - 3_600_000 }), { account_id: a });
    await q("UPDATE brokerdesk.activity_sweeps SET swept_until = $2 WHERE account_id = $1", [a, new Date(t - 3_600_000)]);
    expect(await at(t, 1)).toBe(1);
    expect(await at(t - 1, 1)).toBe(1);
    const first = await sweepAccount(deps({ now: () => t }), { account_id: a });
    expect(first).toMatchObject({ complete: true, sweptUntil: new Date(t).toISOString() });
    const atBoundary = async () =>
      (
        await q<{ n: string }>("SELECT count(*)::text AS n FROM brokerdesk.activities WHERE account_id = $1 AND biz_time = $2", [
          a,
          new Date(t),
        ])
      )[0].n;
    expect(await atBoundary()).toBe("1");
    // Written later with the boundary's very time (and one a millisecond after): the next window starts there.
    expect(await at(t, 2)).toBe(1);
    expect(await at(t + 1, 1)).toBe(1);
    const second = await sweepAccount(deps({ now: () => t + 1000 }), { account_id: a });
    expect(second).toMatchObject({ complete: true, pages: 1, fetched: 3, changed: 2 }); // the first one at t read again, stored once
    expect(await atBoundary()).toBe("2");
    await expectCopyEqual(new Date(t + 1000), a);
  });

  it("an account's upstream error is recorded and the round goes on; the next round clears it; 'as of' waits for every account", async () => {
    await caughtUp();
    await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: "/broker/activities/*", type: "ERROR", status: 500, count: 1 } });
    const round = await sweepActivities(deps());
    expect(round).toMatchObject({
      complete: true,
      done: ALL,
      errors: 1,
      lastError: expect.stringContaining(BROKER_ERROR_MESSAGES.INTERNAL_ERROR),
    });
    const fresh = await activitiesFreshness(f.db.engine);
    expect(fresh.lastError).toContain(BROKER_ERROR_MESSAGES.INTERNAL_ERROR);
    const [failed] = await q<{ account_id: string; swept_until: Date }>(
      "SELECT account_id, swept_until FROM brokerdesk.activity_sweeps WHERE last_error IS NOT NULL",
    );
    // Its copy is as of its last good pass: the oldest of all.
    expect(fresh.asOf).toBe(new Date(failed.swept_until).toISOString());
    expect((await activitiesFreshness(f.db.engine, failed.account_id)).asOf).toBe(new Date(failed.swept_until).toISOString());
    const next = await sweepActivities(deps());
    expect(next).toMatchObject({ complete: true, done: ALL, errors: 0 });
    expect(await activitiesFreshness(f.db.engine)).toMatchObject({ lastError: null, accounts: ALL, swept: ALL });
    // An account never swept yet: no 'as of' across all accounts until it is.
    await q("INSERT INTO brokerdesk.activity_sweeps (account_id) VALUES ('never-swept')");
    expect(await activitiesFreshness(f.db.engine)).toMatchObject({ asOf: null, accounts: ALL + 1, swept: ALL });
    expect((await activitiesFreshness(f.db.engine, seedAccountId(0))).asOf).toEqual(expect.any(String));
    expect(await activitiesFreshness(f.db.engine, "never-swept")).toMatchObject({ asOf: null, accounts: 1, swept: 0 });
    await q("DELETE FROM brokerdesk.activity_sweeps WHERE account_id = 'never-swept'");
  });

  it("an outage stops the round after five accounts in a row failed, left to resume; the accounts that failed are tried again", async () => {
    await caughtUp();
    await f.api.call("POST", "/sandbox/faults", { body: { path_pattern: "/broker/activities/*", type: "ERROR", status: 500, count: 7 } });
    try {
      const stopped = await sweepActivities(deps());
      const internal = expect.stringContaining(BROKER_ERROR_MESSAGES.INTERNAL_ERROR);
      expect(stopped).toMatchObject({ complete: false, done: 5, errors: 5, lastError: internal });
      expect(await activitiesFreshness(f.db.engine)).toMatchObject({ running: { done: 5 }, lastError: internal });
      // The next attempt resumes the round: the first two accounts fail once more (the last two faults), the others pass.
      const resumed = await sweepActivities(deps());
      expect(resumed).toMatchObject({ id: stopped.id, complete: true, done: ALL, total: ALL, errors: 2 });
    } finally {
      await f.api.call("POST", "/sandbox/faults/clear");
    }
    expect(await sweepActivities(deps())).toMatchObject({ complete: true, done: ALL, errors: 0 });
    expect((await activitiesFreshness(f.db.engine)).lastError).toBeNull();
  });

  it("leaves the master account out when the upstream will not list its activities", async () => {
    const master = masterAccountId();
    await q("DELETE FROM brokerdesk.activity_sweeps WHERE account_id = $1", [master]);
    const refusing: BrokerClient = {
      ...client,
      listAccountActivities: async (input, ro) => {
        if (input.account_id === master)
          throw new BrokerError({ status: 417, errorCode: "ACCOUNT_NOT_FOUND", message: "not a virtual account" });
        return client.listAccountActivities(input, ro);
      },
    };
    expect(await sweepActivities(deps({ client: refusing }))).toMatchObject({ complete: true, done: SEEDED_ACCOUNTS, errors: 0 });
    expect(await activitiesFreshness(f.db.engine)).toMatchObject({
      accounts: SEEDED_ACCOUNTS,
      swept: SEEDED_ACCOUNTS,
      asOf: expect.any(String),
      lastError: null,
    });
    // Once listed again it comes back, read from the start.
    expect(await sweepActivities(deps())).toMatchObject({ complete: true, done: ALL, errors: 0 });
    expect(await sweptUntil(master)).toBeTruthy();
  });

  it("stores types and sub types it does not know raw; a row it cannot read stops the pass with the error recorded", async () => {
    const account = { account_id: "raw-account", account_number: "VXX0000001" };
    const item = (id: string, o: Record<string, unknown> = {}) => ({
      id,
      account_id: account.account_id,
      activity_type: "CRYPTO_AIRDROP",
      activity_sub_type: "MOON",
      currency: "USD",
      net_amount: "1.5",
      biz_time: new Date(Date.now() - 3_600_000).toISOString(),
      trade_date: "2026-01-02",
      ...o,
    });
    let items = [item("r1"), item("r2", { activity_sub_type: undefined, currency: undefined, quantity: "n/a", trade_date: "soon" })];
    const stub: BrokerClient = { ...client, listAccountActivities: async () => ({ items: items as never }) };
    expect(await sweepAccount(deps({ client: stub }), account)).toMatchObject({ complete: true, fetched: 2, changed: 2 });
    expect(
      await q(
        "SELECT id, account_number, activity_type, activity_sub_type, currency, quantity, trade_date, net_amount::text FROM brokerdesk.activities WHERE account_id = 'raw-account' ORDER BY id",
      ),
    ).toEqual([
      {
        id: "r1",
        account_number: "VXX0000001",
        activity_type: "CRYPTO_AIRDROP",
        activity_sub_type: "MOON",
        currency: "USD",
        quantity: null,
        trade_date: expect.anything(),
        net_amount: "1.5",
      },
      {
        id: "r2",
        account_number: "VXX0000001",
        activity_type: "CRYPTO_AIRDROP",
        activity_sub_type: null,
        currency: "",
        quantity: null,
        trade_date: null,
        net_amount: "1.5",
      },
    ]);
    items = [item("r3", { net_amount: "lots" })];
    await expect(sweepAccount(deps({ client: stub }), account)).rejects.toThrow(/r3: net_amount "lots"/);
    expect((await activitiesFreshness(f.db.engine, account.account_id)).lastError).toMatch(/^VXX0000001: activity r3/);
    await q("DELETE FROM brokerdesk.activities WHERE account_id = 'raw-account'");
    await q("DELETE FROM brokerdesk.activity_sweeps WHERE account_id = 'raw-account'");
  });

  it("a pass failing on an internal error (a driver's, the network's) records a safe message, its text in the log only", async () => {
    const account = { account_id: "internal-account", account_number: "VXX0000002" };
    const raw = "connect ECONNREFUSED 10.0.3.7:5432";
    const stub: BrokerClient = { ...client, listAccountActivities: () => Promise.reject(new Error(raw)) };
    const logs: unknown[] = [];
    const deps_ = deps({ client: stub, log: (...entry) => void logs.push(entry) });
    await expect(sweepAccount(deps_, account)).rejects.toThrow(raw);
    const fresh = await activitiesFreshness(f.db.engine, account.account_id);
    expect(fresh.lastError).toBe(`VXX0000002: ${RUN_FAILED_MESSAGE}`);
    // A round: the account's line as staff read it, and the error's text in the log.
    const listing: BrokerClient = { ...stub, listVirtualAccounts: async () => ({ items: [account] as never, nextCursor: undefined }) };
    const round = await sweepActivities({ ...deps_, client: listing, master: false });
    expect(round).toMatchObject({ errors: 1, lastError: `VXX0000002: ${RUN_FAILED_MESSAGE}` });
    expect(JSON.stringify(logs)).toContain(raw);
    await q("DELETE FROM brokerdesk.activity_sweeps WHERE account_id = 'internal-account'");
  });

  it("keeps to its rate: never more listing calls in a second than ACTIVITIES_SWEEP_RATE", async () => {
    await caughtUp();
    const rate = 10;
    // Each call is timed at its release, on the pacer's own clock: its bucket (one token, refilled every 1000/rate ms;
    // server/broker/rate-budget.ts) reads the clock when it lets a call go, and nothing reads it between that and the
    // call (one call at a time). Not Date.now() here nor the sandbox's receive time: both lag the release by however
    // long the event loop was held (GC, I/O), which can bunch two calls released 1000/rate ms apart; the release is
    // what the pacer decides, and the calls go out on it. A call not paced carries the reading of the one before.
    // The clock: real time, read once per synchronous run, so the bucket's two readings at a release (its tokens,
    // then its pause) are one instant, the one its token count was computed at.
    const real = Date.now;
    let released = NaN;
    let instant: number | undefined;
    const clock = () => {
      if (instant === undefined) {
        instant = real();
        queueMicrotask(() => (instant = undefined));
      }
      return (released = instant);
    };
    const times: number[] = [];
    const timed: BrokerClient = {
      ...client,
      listVirtualAccounts: (i, ro) => (times.push(released), client.listVirtualAccounts(i, ro)),
      listAccountActivities: (i, ro) => (times.push(released), client.listAccountActivities(i, ro)),
    };
    const d = deps({ client: timed, rate });
    Date.now = clock;
    try {
      paceOf(d); // its bucket made now, taking this clock for Date.now
    } finally {
      Date.now = real;
    }
    const round = await sweepActivities(d);
    expect(round.complete).toBe(true);
    expect(times.length).toBe(ALL + 1);
    for (let i = 0; i < times.length; i++) {
      // Any second, to the millisecond; and evenly spaced, never a burst (sweep-deps.ts).
      expect(times.filter((t) => t >= times[i] && t < times[i] + 1000).length).toBeLessThanOrEqual(rate);
      if (i > 0) expect(times[i] - times[i - 1], `call ${i}`).toBeGreaterThanOrEqual(1000 / rate);
    }
    expect(times[times.length - 1] - times[0]).toBeGreaterThanOrEqual(((times.length - 1) * 1000) / rate);
  }, 30_000);

  it("a round cut short resumes where it was: the accounts already swept are not read again", async () => {
    await caughtUp();
    const ac = new AbortController();
    const first = await sweepActivities(deps({ client: watched((n) => (n === 10 ? ac.abort() : undefined)) }), {
      signal: ac.signal,
      requestedBy: "cut",
    });
    expect(first).toMatchObject({ complete: false, done: 10 });
    expect(await activitiesFreshness(f.db.engine)).toMatchObject({ running: { done: 10, total: ALL, startedAt: first.startedAt } });
    const inputs: ListInput[] = [];
    const second = await sweepActivities(deps({ client: watched(() => undefined, inputs) }));
    expect(second).toMatchObject({ id: first.id, complete: true, done: ALL, total: ALL });
    expect(inputs.length).toBe(ALL - 10);
    expect(new Set(inputs.map((i) => i.account_id)).size).toBe(ALL - 10);
    expect((await activitiesFreshness(f.db.engine)).running).toBeNull();
  });

  it("the sweep job resumes an unfinished round, and a request made before that round's end gets a round of its own", async () => {
    const ac = new AbortController();
    const cut = await sweepActivities(deps({ client: watched((n) => (n === 5 ? ac.abort() : undefined)) }), { signal: ac.signal });
    expect(cut.complete).toBe(false);
    // Asked for while no job runs: pending until a round starts after it.
    const { requestedAt } = await requestActivitiesSweep(f.db.engine, "ops@brokerdesk.test");
    expect((await activitiesFreshness(f.db.engine)).requestedAt).toBe(requestedAt);
    const jobs = await f.jobs({ jobs: [JOBS.activitiesSweep] });
    await jobs.send(JOBS.activitiesSweep.name, { requestedBy: "ops@brokerdesk.test", requestedAt });
    const runStatus = async (id: string) =>
      (await q<{ status: string }>("SELECT status FROM brokerdesk.sync_runs WHERE id = $1", [id]))[0].status;
    await until(async () => (await runStatus(cut.id)) === "done", 20_000, "the unfinished round resumed");
    // The resumed round started before the request, so it does not answer it: the job sends a new round. (A round the
    // hourly schedule sends at the top of the hour may come first and answer it instead: any round started after the
    // request does, whoever sent it.)
    await until(
      async () =>
        (
          await q<{ status: string }>(
            "SELECT status FROM brokerdesk.sync_runs WHERE job = 'activities' AND started_at > $1 ORDER BY started_at DESC LIMIT 1",
            [requestedAt],
          )
        )[0]?.status === "done",
      20_000,
      "a round started after the request",
    );
    expect((await activitiesFreshness(f.db.engine)).requestedAt).toBeNull();
    await jobs.stop();
  }, 60_000);
});
