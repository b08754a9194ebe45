import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { prepareAppDb } from "@/server/db";
import { openEngine, type Engine } from "@/server/db/engine";
import { startConsumer } from "@/server/events/consumer";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import { seedAccountId } from "@/server/sandbox/seed/accounts";
import { emit, type OutboxEvent } from "@/server/sandbox/trading/events/outbox";
import { trading } from "@/server/sandbox/trading/state";

/**
 * `npm run bench:events [-- --pg URL] [--burst N] [--rate N] [--seconds N]`: the desk's event path, from the
 * sandbox's outbox through the gRPC stream and the consumer to the read model, on PGlite (on disk) and on the
 * PostgreSQL server (a temporary database, created and dropped):
 * - burst: N trade events (fills of N/5 orders) written at once; events stored and projected per second, and
 *   the lag (stored time − event time) p50/p99;
 * - steady: `rate` events per second for `seconds`; lag p50/p99.
 * Loopback only, bounded loops; the consumer's detail calls and jobs are off (this measures projection).
 */
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const BURST = Number(arg("burst") ?? 10_000);
const RATE = Number(arg("rate") ?? 500);
const SECONDS = Number(arg("seconds") ?? 10);
const PG_URL = arg("pg") ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ACCOUNTS = Array.from({ length: 16 }, (_, i) => seedAccountId(i));

let serial = 0;
function fills(n: number): OutboxEvent[] {
  const run = `${Date.now().toString(36)}${(serial += 1)}`;
  return Array.from({ length: n }, (_, i) => {
    const order = Math.floor(i / 5);
    const account = ACCOUNTS[order % ACCOUNTS.length];
    const last = i % 5 === 4;
    return {
      event_type: "TRADE", account_id: account,
      payload: {
        biz_type: "TRADE", scene_type: last ? "FINAL_FILLED" : "FILLED", request_id: `${run}-${i}`, account_id: account, order_id: `bo-${run}-${order}`,
        client_order_id: `bc-${run}-${order}`, combo_type: "NORMAL", symbol: "KO", category: "US_STOCK", side: "BUY", order_type: "LIMIT", qty: "5",
        order_status: last ? "FILLED" : "PARTIAL_FILLED", filled_qty: "1", filled_price: (60 + (i % 5) / 100).toFixed(2),
        filled_time: new Date(Date.now() + i).toISOString().replace("Z", "+0000"), actual_commission: "0.01", receivable_commission: "0.01", fees: [],
      },
    };
  });
}

async function write(sb: RunningSandbox, events: OutboxEvent[]): Promise<void> {
  const at = new Date();
  for (let i = 0; i < events.length; i += 2_000) await sb.engine.transaction((tx) => emit(tx, events.slice(i, i + 2_000), at));
  trading(sb.sandbox).bus.emit("events");
}

async function storedCount(app: Engine): Promise<number> {
  const { rows } = await app.query<{ n: string }>("SELECT count(*)::text AS n FROM brokerdesk.upstream_events WHERE source = 'stream'");
  return Number(rows[0].n);
}

async function waitFor(app: Engine, count: number, timeoutMs: number): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if ((await storedCount(app)) >= count) return performance.now();
    if (Date.now() > end) throw new Error(`only ${await storedCount(app)} of ${count} events stored after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function lag(app: Engine, afterSeq: number): Promise<{ p50: string; p99: string }> {
  const { rows } = await app.query<{ p50: number; p99: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY d) AS p99
       FROM (SELECT extract(epoch FROM (received_at - occurred_at)) * 1000 AS d FROM brokerdesk.upstream_events WHERE seq > $1 AND source = 'stream') x`, [afterSeq]);
  return { p50: Number(rows[0].p50).toFixed(0), p99: Number(rows[0].p99).toFixed(0) };
}

const maxSeq = async (app: Engine) => Number((await app.query<{ s: string }>("SELECT coalesce(max(seq), 0)::text AS s FROM brokerdesk.upstream_events")).rows[0].s);

async function bench(engineName: string, engine: Engine) {
  const sb = await startSandbox({ port: 0, grpcPort: 0, engine, tokenRateLimit: 1000 });
  const app = (await prepareAppDb(engine)).engine;
  const consumer = startConsumer({ engine: app, stream: { target: `127.0.0.1:${sb.grpcPort}`, appKey: "brokerdesk-demo-key", appSecret: "brokerdesk-demo-secret" }, leaderPollMs: 100 });
  try {
    const deadline = Date.now() + 20_000;
    while (!(await app.query<{ c: boolean }>("SELECT connected AS c FROM brokerdesk.event_stream")).rows[0].c) {
      if (Date.now() > deadline) throw new Error("the consumer did not connect");
      await new Promise((r) => setTimeout(r, 50));
    }
    // Warm-up: a small batch through the whole path.
    let base = await storedCount(app);
    await write(sb, fills(500));
    await waitFor(app, base + 500, 60_000);

    base = await storedCount(app);
    let seq = await maxSeq(app);
    const started = performance.now();
    await write(sb, fills(BURST));
    const done = await waitFor(app, base + BURST, 300_000);
    const burstLag = await lag(app, seq);
    const perSecond = (BURST / ((done - started) / 1000)).toFixed(0);

    base = await storedCount(app);
    seq = await maxSeq(app);
    const tick = 50;
    const perTick = Math.max(1, Math.round((RATE * tick) / 1000));
    const ticks = Math.round((SECONDS * 1000) / tick);
    const t0 = performance.now();
    for (let i = 0; i < ticks; i += 1) {
      await write(sb, fills(perTick));
      const wait = t0 + (i + 1) * tick - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await waitFor(app, base + ticks * perTick, 60_000);
    const steady = await lag(app, seq);
    const { rows } = await app.query<{ o: string; e: string }>("SELECT (SELECT count(*) FROM brokerdesk.orders)::text AS o, (SELECT count(*) FROM brokerdesk.executions)::text AS e");
    return [
      { engine: engineName, scenario: `burst of ${BURST}`, "events/s": perSecond, "lag p50 ms": burstLag.p50, "lag p99 ms": burstLag.p99, "orders · executions": `${rows[0].o} · ${rows[0].e}` },
      { engine: engineName, scenario: `steady ${RATE}/s for ${SECONDS} s`, "events/s": (ticks * perTick / SECONDS).toFixed(0), "lag p50 ms": steady.p50, "lag p99 ms": steady.p99, "orders · executions": "" },
    ];
  } finally {
    await consumer.stop();
    await sb.close();
  }
}

async function main() {
  const results: Record<string, string>[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-events-"));
  const lite = await openEngine({ dataDir: path.join(dir, "db") });
  try {
    results.push(...(await bench("PGlite (disk)", lite)));
  } finally {
    await lite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const name = `bench_events_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (e) {
    console.error(`PostgreSQL server not measured (${PG_URL}): ${(e as Error).message}`);
    await admin.end().catch(() => undefined);
    console.table(results);
    return;
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const server = await openEngine({ url: url.toString(), poolSize: 10 });
  try {
    results.push(...(await bench("PostgreSQL server", server)));
  } finally {
    await server.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  console.table(results);
}

await main();
process.exit(0);
