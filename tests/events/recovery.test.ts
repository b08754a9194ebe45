import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engines } from "../sandbox/fixture";
import { ACCOUNTS, place, rid, setPrice, stock } from "../sandbox/trading-helpers";
import { startEventsFixture, until, type EventsFixture } from "./helpers";

/**
 * Nothing lost, nothing twice: with the stream dropped, then silenced, and with the consumer killed and restarted
 * while orders and journals keep happening, the read model ends equal to the sandbox's state and every sandbox
 * event after the consumer's start is stored exactly once.
 */
async function activity(f: EventsFixture, rounds: number): Promise<void> {
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

const q = async <T>(f: EventsFixture, sql: string, params: unknown[] = []) => (await f.db.engine.query<T>(sql, params)).rows;

async function lastSandboxEventId(f: EventsFixture): Promise<number> {
  return Number((await q<{ id: string }>(f, "SELECT coalesce(max(id), 0)::text AS id FROM sandbox.events"))[0].id);
}

/** Where the sandbox stands now: the wall clock (requests) and the newest order (orders carry the market clock). */
async function mark(f: EventsFixture): Promise<{ at: Date; orderSeq: number }> {
  const [r] = await q<{ s: string }>(f, "SELECT coalesce(max(seq), 0)::text AS s FROM sandbox.orders");
  return { at: new Date(), orderSeq: Number(r.s) };
}

/** Every sandbox event after `fromId` stored once; orders and movements with the sandbox's statuses. */
async function expectInSync(f: EventsFixture, fromId: number, since: { at: Date; orderSeq: number }): Promise<void> {
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

describe.each(engines)("event consumer recovery ($name)", (te) => {
  let f: EventsFixture;
  beforeAll(async () => {
    f = await startEventsFixture(te);
    await setPrice(f.api, "KO", "60.00");
  }, 60_000);
  afterAll(async () => f?.close());

  it("dropped, silenced, stopped and restarted: the read model ends equal to the sandbox and no event is stored twice", async () => {
    const fromId = await lastSandboxEventId(f);
    const since = await mark(f);
    let consumer = f.consumer();
    await until(
      async () => (await q<{ connected: boolean }>(f, "SELECT connected FROM brokerdesk.event_stream"))[0]?.connected,
      20_000,
      "connected",
    );
    await activity(f, 3);
    await f.api.call("POST", "/sandbox/events/drop", { body: {} });
    await activity(f, 3);
    await f.api.call("POST", "/sandbox/events/silence", { body: { silent: true } });
    await activity(f, 3);
    // Longer than the consumer's silence limit (1.5 s): it gives the stream up and reconnects.
    await new Promise((r) => setTimeout(r, 2500));
    await f.api.call("POST", "/sandbox/events/silence", { body: { silent: false } });
    await activity(f, 2);
    await consumer.stop();
    await activity(f, 3);
    consumer = f.consumer();
    await activity(f, 2);
    await expectInSync(f, fromId, since);
    const [s] = await q<{ reconnects: number }>(f, "SELECT reconnects FROM brokerdesk.event_stream");
    expect(s.reconnects).toBeGreaterThanOrEqual(2);
  }, 90_000);
});

function kill(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // already gone
  }
}

const server = engines.find((e) => e.name === "postgres");
describe.skipIf(!server)("two consumer processes on one PostgreSQL server", () => {
  let f: EventsFixture;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    f = await startEventsFixture(server!);
    await setPrice(f.api, "KO", "60.00");
  }, 60_000);
  afterAll(async () => {
    for (const c of children) kill(c);
    await f?.close();
  });

  const spawnConsumer = (name: string) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "server/events/main.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: f.url,
        SANDBOX_PORT: String(f.sb.port),
        SANDBOX_GRPC_PORT: String(f.sb.grpcPort),
        EVENTS_SILENCE_MS: "1500",
        LOG_LEVEL: "silent",
        NODE_ENV: "production",
        EVENTS_RECONCILE_INTERVAL_MS: "600000",
        CONSUMER_NAME: name,
      },
      stdio: "ignore",
      // Its own process group: tsx runs the consumer in a child process, and SIGKILL must reach that one.
      detached: true,
    });
    children.push(child);
    return child;
  };
  const stream = async () =>
    (
      await q<{ leader: string | null; connected: boolean; heartbeat_at: Date | null }>(
        f,
        "SELECT leader, connected, heartbeat_at FROM brokerdesk.event_stream",
      )
    )[0];

  it("only one consumes; SIGKILL the leader and the other takes over within 10 s; nothing lost", async () => {
    const fromId = await lastSandboxEventId(f);
    const since = await mark(f);
    const a = spawnConsumer("a");
    const first = await until(
      async () => {
        const s = await stream();
        return s.connected && s.leader;
      },
      30_000,
      "a leader",
    );
    const b = spawnConsumer("b");
    await activity(f, 3);
    // b stands by: the leader stays the same while both run.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await stream()).leader).toBe(first);
    expect(b.exitCode).toBeNull(); // still standing by
    const killed = Date.now();
    kill(a);
    await activity(f, 2);
    const second = await until(
      async () => {
        const s = await stream();
        return s.connected && s.leader !== first && s.leader;
      },
      10_000,
      "takeover",
    );
    expect(Date.now() - killed).toBeLessThan(10_000);
    expect(second).not.toBe(first);
    await activity(f, 2);
    // The killed consumer comes back and stands by.
    spawnConsumer("a2");
    await activity(f, 1);
    await expectInSync(f, fromId, since);
    kill(b);
  }, 120_000);
});
