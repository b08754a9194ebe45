import { beforeEach, describe, expect, it } from "vitest";
import { NotFoundError } from "@/lib/errors";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import type { BrokerClient } from "@/server/broker/client";
import { listOrders } from "@/server/orders/queries/blotter";
import { saveSweepAttempt, selectNextSweepAccount } from "@/server/orders/queries/sweep";
import { checkAccountOrders, pacer, requestOrderCheck, runOrderSweep, type OrderSweepDeps } from "@/server/orders/sweep";
import { JOBS } from "@/server/jobs/definitions";
import { masterAccountId } from "@/server/sandbox/seed";
import { engines } from "../sandbox/fixture";
import { ACCOUNTS } from "../sandbox/trading-helpers";
import { usStockOrder } from "../helpers/orders";
import { until } from "../events/helpers";
import { DETAIL, OPEN_LIST, useOrdersFixture } from "../helpers/orders-fixture";

/**
 * The open-orders sweep against the sandbox, with no event consumer running: what reaches the books here reached
 * them through the sweep. Orders are placed at the sandbox directly, as a customer's own app does (the upstream
 * sends no event for an accepted order).
 */
describe.each(engines)("open-orders sweep ($name)", (te) => {
  // The directory filled as the desk's account listings leave it: every seeded account with its number.
  const { f, numbers } = useOrdersFixture(te);
  beforeEach(async () => {
    await f.db.engine.exec("TRUNCATE brokerdesk.order_sweep");
  });

  const deps = (o: Partial<OrderSweepDeps> = {}): OrderSweepDeps => ({
    engine: f.db.engine,
    client: f.client,
    rate: 200,
    hotMs: 60_000,
    ...o,
  });
  const calls = async () => (await f.api.call("GET", "/sandbox/calls")).body.data as Record<string, number>;
  const place = async (account: string, over: Record<string, unknown> = {}) => {
    const order = usStockOrder({ quantity: "2", limit_price: "10.00", ...over });
    const r = await f.api.call("POST", "/broker/orders/place", { body: { account_id: account, new_orders: [order] } });
    expect(r.status).toBe(200);
    return order.client_order_id as string;
  };
  const bookRow = async (account: string, coid: string) =>
    (
      await f.db.engine.query<{ status: string; limit_price: string | null; quantity: string | null }>(
        "SELECT status, limit_price::text, quantity::text FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2",
        [account, coid],
      )
    ).rows[0];
  const state = async (account: string) =>
    (
      await f.db.engine.query<{ checked_at: Date | null; attempted_at: Date | null; last_error: string | null }>(
        "SELECT checked_at, attempted_at, last_error FROM brokerdesk.order_sweep WHERE account_id = $1",
        [account],
      )
    ).rows[0];
  /** Runs the loop until `done` holds (or 15 s), then stops it. */
  const sweepUntil = async (d: OrderSweepDeps, done: () => Promise<boolean>) => {
    const stop = new AbortController();
    const running = runOrderSweep(d, { pace: pacer(d.rate), listedAt: Date.now() }, stop.signal);
    try {
      await until(done, 15_000);
    } finally {
      stop.abort();
    }
    return running;
  };

  it("an order placed at the upstream enters the books, complete, with one listing call for the account", async () => {
    const account = ACCOUNTS.margin;
    const coid = await place(account);
    expect(await bookRow(account, coid)).toBeUndefined();
    const before = (await calls())[OPEN_LIST] ?? 0;
    const result = await checkAccountOrders(deps(), account, pacer(200));
    expect((await calls())[OPEN_LIST]).toBe(before + 1);
    expect(result.found).toBeGreaterThanOrEqual(1);
    expect(await bookRow(account, coid)).toEqual({ status: "SUBMITTED", limit_price: "10.00", quantity: "2" });
    // Read again: nothing new, nothing written.
    expect((await checkAccountOrders(deps(), account, pacer(200))).found).toBe(0);
  });

  it("an order the books hold open that the upstream no longer lists gets one detail call and its end is recorded", async () => {
    const account = ACCOUNTS.cash;
    const coid = await place(account);
    await checkAccountOrders(deps(), account, pacer(200));
    const cancelled = await f.api.call("POST", "/broker/orders/cancel", { body: { account_id: account, client_order_id: coid } });
    expect(cancelled.status).toBe(200);
    const before = (await calls())[DETAIL] ?? 0;
    await checkAccountOrders(deps(), account, pacer(200));
    expect((await calls())[DETAIL]).toBe(before + 1);
    expect((await bookRow(account, coid)).status).toBe("CANCELLED");
  });

  it("the blotter filters by the account's number as by its id", async () => {
    const account = ACCOUNTS.marginCn;
    const coid = await place(account);
    await checkAccountOrders(deps(), account, pacer(200));
    const byNumber = await listOrders(f.db.engine, { account: numbers.get(account)! }, { limit: 500 });
    const byId = await listOrders(f.db.engine, { account }, { limit: 500 });
    expect(byNumber.rows.map((r) => r.id)).toEqual(byId.rows.map((r) => r.id));
    expect(byNumber.rows.map((r) => r.clientOrderId)).toContain(coid);
    expect(new Set(byNumber.rows.map((r) => r.accountId))).toEqual(new Set([account]));
  });

  it("takes an account staff asked about first, then one with open orders, then the round's next; busy ones never starve the round", async () => {
    const seen: string[] = [];
    const watched: BrokerClient = {
      ...f.client,
      listOpenOrders: (input, ro) => (seen.push(input.account_id), f.client.listOpenOrders(input, ro)),
    };
    // An open order in the books for one account; then a whole cycle, so every account has been tried once.
    await place(ACCOUNTS.margin);
    await checkAccountOrders(deps(), ACCOUNTS.margin, pacer(200));
    await sweepUntil(deps({ client: watched }), async () => seen.length >= numbers.size);
    const hot = new Set(
      (
        await f.db.engine.query<{ account_id: string }>(
          "SELECT DISTINCT account_id FROM brokerdesk.orders WHERE status IN ('PENDING', 'SUBMITTED', 'PARTIAL_FILLED') OR updated_at > now() - interval '15 minutes'",
        )
      ).rows.map((r) => r.account_id),
    );
    expect(hot.has(ACCOUNTS.margin)).toBe(true);
    const asked = ACCOUNTS.optionsLv1;
    expect(hot.has(asked)).toBe(false);
    seen.length = 0;
    const check = await requestOrderCheck(f.db.engine, numbers.get(asked)!, 0);
    expect(check).toMatchObject({ accountId: asked, accountNumber: numbers.get(asked), pending: true });
    // hotMs 0: a busy account is due again at once, every time; still every other call is the round's.
    await sweepUntil(deps({ client: watched, hotMs: 0 }), async () => seen.length >= 9);
    expect(seen[0]).toBe(asked);
    for (const i of [1, 3, 5, 7]) expect(hot.has(seen[i]), `call ${i}: ${seen[i]}`).toBe(true);
    const round = [2, 4, 6, 8].map((i) => seen[i]);
    expect(round.filter((a) => !hot.has(a)).length).toBeGreaterThan(0);
    expect((await requestOrderCheck(f.db.engine, asked, 60_000)).pending).toBe(false);
  });

  it("records a failing account and goes on to the next; the next success clears the error", async () => {
    const account = ACCOUNTS.optionsLv2;
    await requestOrderCheck(f.db.engine, account, 0);
    const fault = await f.api.call("POST", "/sandbox/faults", {
      body: { type: "ERROR", path_pattern: "/broker/orders/open-orders/list", status: 500, count: 1 },
    });
    expect(fault.status).toBe(200);
    // until the failure is recorded and the loop has gone on to three more accounts (the counter is the sandbox's,
    // over every earlier test: counted from here)
    const before = (await calls())[OPEN_LIST] ?? 0;
    const totals = await sweepUntil(
      deps(),
      async () => ((await state(account))?.last_error ?? null) !== null && ((await calls())[OPEN_LIST] ?? 0) > before + 3,
    );
    expect(totals.errors).toBe(1);
    expect(totals.checked).toBeGreaterThan(0);
    const failed = await state(account);
    expect(failed.checked_at).toBeNull();
    // The broker's failure in words for the order check line, not its code and message.
    expect(failed.last_error).toBe("The broker had an internal error. Try again shortly.");
    await requestOrderCheck(f.db.engine, account, 0);
    await sweepUntil(deps(), async () => (await state(account))?.checked_at !== null);
    expect((await state(account)).last_error).toBeNull();
  });

  it("an account whose last check failed (gone upstream) loses its busy turns and comes round with the rest", async () => {
    await place(ACCOUNTS.margin);
    await checkAccountOrders(deps(), ACCOUNTS.margin, pacer(200));
    const next = () => selectNextSweepAccount(f.db.engine, { hotMs: -1_000, recentSince: new Date(0), hot: true });
    // Every account tried just now, the others failing (whatever orders earlier tests left them): only the busy
    // account that answered is due for a busy turn, ahead of the round.
    await f.db.engine.query(
      `INSERT INTO brokerdesk.order_sweep (account_id, attempted_at, checked_at, last_error)
       SELECT account_id, now(), now(), CASE WHEN account_id = $1 THEN NULL ELSE 'failed' END FROM brokerdesk.account_directory`,
      [ACCOUNTS.margin],
    );
    expect(await next()).toMatchObject({ account_id: ACCOUNTS.margin, tier: 1 });
    await saveSweepAttempt(f.db.engine, ACCOUNTS.margin, new Date(), { ok: false, error: "ACCOUNT_NOT_FOUND: account_id does not exist." });
    expect((await next())?.tier).toBe(2);
  });

  it("the master account the directory names (for the pages) is never swept: the round lists only virtual accounts", async () => {
    const master = masterAccountId();
    await rememberAccountNumbers(f.db.engine, [{ account_id: master, account_number: "MASTER-NUMBER" }]);
    const seen: string[] = [];
    const watched: BrokerClient = {
      ...f.client,
      listOpenOrders: (input, ro) => (seen.push(input.account_id), f.client.listOpenOrders(input, ro)),
    };
    // A fresh memory, as the job's first run has: the accounts are listed (and their master learnt) first.
    const stop = new AbortController();
    const running = runOrderSweep(deps({ client: watched }), { pace: pacer(200), listedAt: 0 }, stop.signal);
    try {
      await until(async () => new Set(seen).size >= numbers.size, 15_000);
    } finally {
      stop.abort();
    }
    const totals = await running;
    expect(seen).not.toContain(master);
    expect(totals.errors).toBe(0);
    expect(await state(master)).toBeUndefined();
  });

  it("runs as the orders-sweep job: an order placed at the upstream reaches the books without anyone asking", async () => {
    const account = ACCOUNTS.optionsLv2;
    const coid = await place(account, { limit_price: "11.00" });
    // Only the sweep's job: the others (the backfill due at start) could book the order without a sweep visit.
    const jobs = await f.jobs({ jobs: [JOBS.ordersSweep], deps: { orders: { rate: 100, hotMs: 60_000 } } });
    try {
      // The visit's record (written after the order is committed): the row exists only once the sweep has been here.
      const visited = await until(async () => (await state(account))?.checked_at, 20_000, "the sweep's visit of the account");
      expect(visited).toBeInstanceOf(Date);
      expect(await bookRow(account, coid)).toMatchObject({ limit_price: "11.00", quantity: "2" });
    } finally {
      await jobs.stop();
    }
  });

  it("a view while a check is waiting or running is answered by a check that starts after it", async () => {
    const account = ACCOUNTS.cash;
    const next = () => selectNextSweepAccount(f.db.engine, { hotMs: 60_000, recentSince: new Date(0), hot: false });
    expect((await requestOrderCheck(f.db.engine, account, 0)).pending).toBe(true);
    const visit = await next();
    expect(visit).toMatchObject({ account_id: account, tier: 0 });
    // The visit has started (its listing may already be out) when someone looks again.
    await new Promise((r) => setTimeout(r, 20));
    expect((await requestOrderCheck(f.db.engine, account, 0)).pending).toBe(true);
    await saveSweepAttempt(f.db.engine, account, visit!.started_at, { ok: true, openOrders: 0, found: 0 });
    // That visit listed before the second look: the look is still waiting, and the account is taken first again.
    expect((await requestOrderCheck(f.db.engine, account, 60_000)).pending).toBe(true);
    expect(await next()).toMatchObject({ account_id: account, tier: 0 });
    // A poll while that check is on its way only reads: it does not move the request past the next visit's start.
    const wanted = async () =>
      (await f.db.engine.query<{ w: Date }>("SELECT wanted_at AS w FROM brokerdesk.order_sweep WHERE account_id = $1", [account])).rows[0]
        .w;
    const before = await wanted();
    await new Promise((r) => setTimeout(r, 20));
    expect((await requestOrderCheck(f.db.engine, account, 0, true)).pending).toBe(true);
    expect(await wanted()).toEqual(before);
  });

  it("a visit is stamped with its start to the microsecond: a look just before it, in the same millisecond, is answered by it", async () => {
    const account = ACCOUNTS.marginCn;
    const next = () => selectNextSweepAccount(f.db.engine, { hotMs: 60_000, recentSince: new Date(0), hot: false });
    await requestOrderCheck(f.db.engine, account, 0);
    const visit = await next();
    expect(visit).toMatchObject({ account_id: account, tier: 0 });
    // the look one microsecond before the visit began (a millisecond clock cannot tell them apart)
    await f.db.engine.query(
      "UPDATE brokerdesk.order_sweep SET wanted_at = $2::timestamptz - interval '1 microsecond' WHERE account_id = $1",
      [account, visit!.started_at],
    );
    await saveSweepAttempt(f.db.engine, account, visit!.started_at, { ok: true, openOrders: 0, found: 0 });
    // stamped exactly as the database read its clock (a Date in between would have cut the microseconds)
    const { rows } = await f.db.engine.query<{ at: string }>(
      "SELECT attempted_at::text AS at FROM brokerdesk.order_sweep WHERE account_id = $1",
      [account],
    );
    expect(rows[0].at).toBe(visit!.started_at);
    expect((await requestOrderCheck(f.db.engine, account, 60_000, true)).pending).toBe(false);
    expect((await next())?.account_id === account && (await next())?.tier === 0).toBe(false);
  });

  it("a check is asked for only when the last is older than the freshness; an unknown account is not found", async () => {
    const account = ACCOUNTS.cash;
    await checkAccountOrders(deps(), account, pacer(200));
    await f.db.engine.query(
      "INSERT INTO brokerdesk.order_sweep (account_id, attempted_at, checked_at) VALUES ($1, now(), now()) ON CONFLICT (account_id) DO UPDATE SET checked_at = now(), attempted_at = now(), wanted_at = NULL",
      [account],
    );
    expect((await requestOrderCheck(f.db.engine, account, 30_000)).pending).toBe(false);
    expect((await requestOrderCheck(f.db.engine, account, 0)).pending).toBe(true);
    await expect(requestOrderCheck(f.db.engine, "NO-SUCH-ACCOUNT", 0)).rejects.toBeInstanceOf(NotFoundError);
    expect((await f.db.engine.query("SELECT 1 FROM brokerdesk.order_sweep WHERE account_id = 'NO-SUCH-ACCOUNT'")).rows).toHaveLength(0);
  });
});
