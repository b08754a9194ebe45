import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { expect } from "vitest";
import { ACCOUNTS, place, rid, stock } from "../sandbox/trading-helpers";
import { until, type EventsFixture } from "./helpers";

/**
 * The fault drills' shared parts: activity on the sandbox while the consumer is knocked about, the check that the
 * books ended equal to the sandbox with every event stored once, and consumer processes as `npm start` runs them.
 */
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

/**
 * Every sandbox event after `fromId` stored once; orders and movements with the sandbox's statuses. Events are
 * compared row by row: a sandbox transaction that failed (its connection terminated) leaves a gap in the ids.
 */
export async function expectInSync(
  f: EventsFixture,
  fromId: number,
  since: { at: Date; orderSeq: number },
  /** Count only the orders an event told of: one whose cancel failed with the database rests unannounced (the sweep's to find). */
  o: { announcedOnly?: boolean } = {},
): Promise<void> {
  const [{ n: sent }] = await q<{ n: string }>(f, "SELECT count(*)::text AS n FROM sandbox.events WHERE id > $1", [fromId]);
  const storedSql = "FROM brokerdesk.upstream_events WHERE source = 'stream' AND event_id ~ '^\\d+$' AND event_id::bigint > $1";
  await until(
    async () => {
      const [r] = await q<{ n: string }>(f, `SELECT count(*)::text AS n ${storedSql}`, [fromId]);
      return Number(r.n) >= Number(sent);
    },
    30_000,
    "all events stored",
  ).catch(() => undefined); // what is missing, the assertions below name

  const [stored] = await q<{ n: string; d: string }>(f, `SELECT count(*)::text AS n, count(DISTINCT event_id)::text AS d ${storedSql}`, [
    fromId,
  ]);
  expect(stored.n).toBe(sent);
  expect(stored.d).toBe(stored.n);
  const unstored = await q<{ id: string }>(
    f,
    `SELECT e.id::text FROM sandbox.events e LEFT JOIN brokerdesk.upstream_events u ON u.event_id = e.id::text
      WHERE e.id > $1 AND u.seq IS NULL`,
    [fromId],
  );
  expect(unstored).toEqual([]);
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
              WHERE s.seq > $2 AND o.id IS NULL
                AND (NOT $3 OR EXISTS (SELECT 1 FROM sandbox.events e WHERE e.id > $4 AND e.payload::text LIKE '%' || s.client_order_id || '%')))::text AS orders,
            (SELECT count(*) FROM sandbox.requests r LEFT JOIN brokerdesk.money_movements m ON m.kind = r.kind AND m.client_request_id = r.client_request_id
              WHERE r.kind = 'CASH_JOURNAL' AND r.created_at >= $1 AND m.id IS NULL)::text AS journals,
            (SELECT count(*) FROM sandbox.orders s WHERE s.seq > $2)::text AS placed`,
    [since.at, since.orderSeq, o.announcedOnly === true, fromId],
  );
  expect(Number(missing.placed)).toBeGreaterThan(0);
  expect([missing.orders, missing.journals]).toEqual(["0", "0"]);
}

/** A consumer process (`server/events/main.ts`: the consumer and the job system) on the fixture's database and sandbox. */
export interface ConsumerProcess {
  child: ChildProcess;
  /** What it logged so far (JSON lines, level info). */
  output(): string;
  /** Signals its whole process group (tsx runs the program in a child of its own). */
  signal(sig: NodeJS.Signals): void;
}

export function spawnConsumer(f: EventsFixture, env: Record<string, string> = {}): ConsumerProcess {
  const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "server/events/main.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: f.url,
      SANDBOX_PORT: String(f.sb.port),
      SANDBOX_GRPC_PORT: String(f.sb.grpcPort),
      EVENTS_SILENCE_MS: "1500",
      LOG_LEVEL: "info",
      NODE_ENV: "production",
      EVENTS_RECONCILE_INTERVAL_MS: "600000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: tsx runs the consumer in a child process, and a signal must reach that one.
    detached: true,
  });
  let out = "";
  child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
  return {
    child,
    output: () => out,
    signal: (sig) => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        // already gone
      }
    },
  };
}
