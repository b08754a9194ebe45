import "server-only";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { tradeFill } from "./bench/fills";
import { startChild } from "./bench/load";
import { freePort } from "./free-port";
import { prepareAppDb } from "@/server/db";
import { openEngine, type Engine } from "@/server/db/engine";
import { startConsumer } from "@/server/events/consumer";
import { seedAccountId } from "@/server/sandbox/seed/accounts";
import { signedHeaders } from "@/server/wire/signing";
import { option, pgUrl } from "./args";

/**
 * `npm run bench:events [-- --pg URL] [--burst N] [--rate N] [--seconds N]`: the desk's event path, from the
 * sandbox's outbox through the gRPC stream and the consumer to the read model, as `npm start` runs it: the sandbox
 * a process of its own (`npm run sandbox`), the consumer here. On PGlite (each side its own directory on disk) and
 * on the PostgreSQL server (a temporary database, created and dropped; schemas sandbox and brokerdesk):
 * - burst: N trade events (fills of N/5 orders) written at once; events stored and projected per second, and
 *   the lag (stored time − event time) p50/p99;
 * - steady: `rate` events per second for `seconds`; lag p50/p99.
 * Loopback only, bounded loops; the consumer's detail calls and jobs are off (this measures projection).
 */
const BURST = Number(option("burst") ?? 10_000);
const RATE = Number(option("rate") ?? 500);
const SECONDS = Number(option("seconds") ?? 10);
const PG_URL = pgUrl();
const ACCOUNTS = Array.from({ length: 16 }, (_, i) => seedAccountId(i));

interface Sandbox {
  url: string;
  grpcPort: number;
  child: ChildProcess;
}

async function startSandboxProcess(env: Record<string, string>): Promise<Sandbox> {
  const [port, grpcPort] = [await freePort(), await freePort()];
  const started = await startChild(
    "server/sandbox/main.ts",
    { ...env, SANDBOX_PORT: String(port), SANDBOX_GRPC_PORT: String(grpcPort), LOG_LEVEL: "warn" },
    port,
    "/health",
  );
  return { ...started, grpcPort };
}

function stopSandbox(sb: Sandbox) {
  try {
    process.kill(-sb.child.pid!, "SIGTERM");
  } catch {
    // gone
  }
}

/** A signed control call of the sandbox. */
async function control(sb: Sandbox, p: string, body: unknown): Promise<{ last_event_id: string }> {
  const text = JSON.stringify(body);
  const headers = signedHeaders({
    appKey: "brokerdesk-demo-key",
    appSecret: "brokerdesk-demo-secret",
    algorithm: "HMAC-SHA256",
    path: p,
    query: {},
    host: new URL(sb.url).host,
    body: text,
  });
  const res = await fetch(new URL(p, sb.url), { method: "POST", body: text, headers: { ...headers, "content-type": "application/json" } });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

let serial = 0;
function fills(n: number) {
  const run = `b${Date.now().toString(36)}${(serial += 1)}`;
  return Array.from({ length: n }, (_, i) => tradeFill(run, i, ACCOUNTS[Math.floor(i / 5) % ACCOUNTS.length], new Date(Date.now() + i)));
}

/** Publishes events at the sandbox (1,000 a call, within its body limit); returns the sandbox's newest event id. */
async function write(sb: Sandbox, events: ReturnType<typeof fills>): Promise<string> {
  let last = "0";
  for (let i = 0; i < events.length; i += 1_000)
    last = (await control(sb, "/sandbox/events/publish", { events: events.slice(i, i + 1_000) })).last_event_id;
  return last;
}

/** Waits until the consumer's resume point reaches the sandbox's newest event (one row read, not a count). */
async function waitFor(engine: Engine, newest: string, timeoutMs: number): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await engine.query<{ id: string | null }>("SELECT last_event_id AS id FROM brokerdesk.event_stream");
    if (rows[0]?.id && BigInt(rows[0].id) >= BigInt(newest)) return performance.now();
    if (Date.now() > end) throw new Error(`the consumer reached event ${rows[0]?.id} of ${newest} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function lag(app: Engine, afterSeq: number): Promise<{ p50: string; p99: string }> {
  const { rows } = await app.query<{ p50: number; p99: number }>(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY d) AS p99
       FROM (SELECT extract(epoch FROM (received_at - occurred_at)) * 1000 AS d FROM brokerdesk.upstream_events WHERE seq > $1 AND source = 'stream') x`,
    [afterSeq],
  );
  return { p50: Number(rows[0].p50).toFixed(0), p99: Number(rows[0].p99).toFixed(0) };
}

const maxSeq = async (app: Engine) =>
  Number((await app.query<{ s: string }>("SELECT coalesce(max(seq), 0)::text AS s FROM brokerdesk.upstream_events")).rows[0].s);

async function bench(engineName: string, engine: Engine, sandboxEnv: Record<string, string>) {
  const sb = await startSandboxProcess(sandboxEnv);
  const app = (await prepareAppDb(engine)).engine;
  const consumer = startConsumer({
    engine: app,
    stream: { target: `127.0.0.1:${sb.grpcPort}`, appKey: "brokerdesk-demo-key", appSecret: "brokerdesk-demo-secret" },
    leaderPollMs: 100,
  });
  try {
    const deadline = Date.now() + 20_000;
    while (!(await app.query<{ c: boolean }>("SELECT connected AS c FROM brokerdesk.event_stream")).rows[0].c) {
      if (Date.now() > deadline) throw new Error("the consumer did not connect");
      await new Promise((r) => setTimeout(r, 50));
    }
    // Warm-up: a small batch through the whole path.
    await waitFor(app, await write(sb, fills(500)), 60_000);

    let seq = await maxSeq(app);
    // Timed from the moment the burst is in the sandbox's outbox to the moment the last of it is projected.
    const newestOfBurst = await write(sb, fills(BURST));
    const started = performance.now();
    const done = await waitFor(app, newestOfBurst, 300_000);
    const burstLag = await lag(app, seq);
    const perSecond = (BURST / ((done - started) / 1000)).toFixed(0);

    seq = await maxSeq(app);
    const tick = 50;
    const perTick = Math.max(1, Math.round((RATE * tick) / 1000));
    const ticks = Math.round((SECONDS * 1000) / tick);
    const t0 = performance.now();
    let newest = "0";
    for (let i = 0; i < ticks; i += 1) {
      newest = await write(sb, fills(perTick));
      const wait = t0 + (i + 1) * tick - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await waitFor(app, newest, 60_000);
    const steady = await lag(app, seq);
    const { rows } = await app.query<{ o: string; e: string }>(
      "SELECT (SELECT count(*) FROM brokerdesk.orders)::text AS o, (SELECT count(*) FROM brokerdesk.executions)::text AS e",
    );
    return [
      {
        engine: engineName,
        scenario: `burst of ${BURST}`,
        "events/s": perSecond,
        "lag p50 ms": burstLag.p50,
        "lag p99 ms": burstLag.p99,
        "orders · executions": `${rows[0].o} · ${rows[0].e}`,
      },
      {
        engine: engineName,
        scenario: `steady ${RATE}/s for ${SECONDS} s`,
        "events/s": ((ticks * perTick) / SECONDS).toFixed(0),
        "lag p50 ms": steady.p50,
        "lag p99 ms": steady.p99,
        "orders · executions": "",
      },
    ];
  } finally {
    await consumer.stop();
    stopSandbox(sb);
  }
}

async function main() {
  const results: Record<string, string>[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-events-"));
  const lite = await openEngine({ dataDir: path.join(dir, "app-db") });
  try {
    results.push(...(await bench("PGlite (disk)", lite, { BROKERDESK_DATA_DIR: dir })));
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
    results.push(...(await bench("PostgreSQL server", server, { DATABASE_URL: url.toString() })));
  } finally {
    await server.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  console.table(results);
}

await main();
process.exit(0);
