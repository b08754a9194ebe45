import { expect } from "vitest";
import { ACCOUNTS, place, rid, stock } from "../sandbox/trading-helpers";
import { until, type EventsFixture } from "./helpers";

/** The fault drills' yardstick: activity at the sandbox, and the books compared with the sandbox's state afterwards. */

/** Each round: a resting order placed and cancelled, a filled order (an execution), a cash journal. */
export async function activity(f: EventsFixture, rounds: number): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    const resting = stock({ symbol: "AAPL", limit_price: "1.00", quantity: "1" });
    await place(f.api, ACCOUNTS.margin, [resting]);
    await f.api.op("cancelOrder", "resource", { body: { account_id: ACCOUNTS.margin, client_order_id: resting.client_order_id } });
    await place(f.api, ACCOUNTS.margin, [stock({ symbol: "KO", limit_price: "61.00", quantity: "1" })]);
    await f.api.op("createCashJournal", "resource", {
      body: { from_account: ACCOUNTS.margin, to_account: ACCOUNTS.cash, client_request_id: rid("cj"), amount: "1.00", currency: "USD" },
    });
  }
}

export const q = async <T>(f: EventsFixture, sql: string, params: unknown[] = []) => (await f.db.engine.query<T>(sql, params)).rows;

export async function lastSandboxEventId(f: EventsFixture): Promise<number> {
  return Number((await q<{ id: string }>(f, "SELECT coalesce(max(id), 0)::text AS id FROM sandbox.events"))[0].id);
}

/** Where the sandbox stands now: the wall clock (requests) and the newest order (orders carry the market clock). */
export async function mark(f: EventsFixture): Promise<{ at: Date; orderSeq: number }> {
  const [r] = await q<{ s: string }>(f, "SELECT coalesce(max(seq), 0)::text AS s FROM sandbox.orders");
  return { at: new Date(), orderSeq: Number(r.s) };
}

/** Every sandbox event after `fromId` stored once; orders and movements with the sandbox's statuses. */
export async function expectInSync(f: EventsFixture, fromId: number, since: { at: Date; orderSeq: number }): Promise<void> {
  const want = await lastSandboxEventId(f);
  await until(
    async () => {
      const [r] = await q<{ n: string }>(
        f,
        "SELECT count(*)::text AS n FROM brokerdesk.upstream_events WHERE source = 'stream' AND event_id ~ '^\\d+$' AND event_id::bigint > $1",
        [fromId],
      );
      return Number(r.n) >= want - fromId;
    },
    15_000,
    "all events stored",
  );
  const [stored] = await q<{ n: string; d: string; lo: string; hi: string }>(
    f,
    `SELECT count(*)::text AS n, count(DISTINCT event_id)::text AS d, min(event_id::bigint)::text AS lo, max(event_id::bigint)::text AS hi
       FROM brokerdesk.upstream_events WHERE source = 'stream' AND event_id ~ '^\\d+$' AND event_id::bigint > $1`,
    [fromId],
  );
  expect(Number(stored.n)).toBe(want - fromId);
  expect(stored.d).toBe(stored.n);
  expect([Number(stored.lo), Number(stored.hi)]).toEqual([fromId + 1, want]);
  const mismatched = await q<Record<string, string>>(
    f,
    `SELECT o.client_order_id, o.status AS desk, s.status AS sandbox FROM brokerdesk.orders o
       JOIN sandbox.orders s ON s.account_id = o.account_id AND s.client_order_id = o.client_order_id WHERE o.status <> s.status`,
  );
  expect(mismatched).toEqual([]);
  const movements = await q<Record<string, string>>(
    f,
    `SELECT m.client_request_id, m.status AS desk, r.status AS sandbox FROM brokerdesk.money_movements m
       JOIN sandbox.requests r ON r.kind = m.kind AND r.client_request_id = m.client_request_id WHERE m.status <> r.status`,
  );
  expect(movements).toEqual([]);
  // Counts: every order and journal the sandbox made since the consumer started is in the read model.
  const [missing] = await q<{ orders: string; journals: string; placed: string }>(
    f,
    `SELECT (SELECT count(*) FROM sandbox.orders s LEFT JOIN brokerdesk.orders o USING (account_id, client_order_id)
              WHERE s.seq > $2 AND o.id IS NULL)::text AS orders,
            (SELECT count(*) FROM sandbox.requests r LEFT JOIN brokerdesk.money_movements m ON m.kind = r.kind AND m.client_request_id = r.client_request_id
              WHERE r.kind = 'CASH_JOURNAL' AND r.created_at >= $1 AND m.id IS NULL)::text AS journals,
            (SELECT count(*) FROM sandbox.orders s WHERE s.seq > $2)::text AS placed`,
    [since.at, since.orderSeq],
  );
  expect(Number(missing.placed)).toBeGreaterThan(0);
  expect([missing.orders, missing.journals]).toEqual(["0", "0"]);
}
