import "server-only";
import { randomBytes } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { ingest } from "@/server/books/ingest";
import { prepareAppDb } from "@/server/db";
import { openEngine, type Engine } from "@/server/db/engine";
import { fromStream } from "@/server/events/ingest";
import { option, pgUrl } from "./args";
import { tradeFill } from "./bench/fills";
import { cpuMs } from "./bench/load";
import { run } from "./bench/run";
import { backendPids, createDatabase, dropDatabase } from "./load/queries";

/**
 * `npm run bench:projection [-- --events N] [--batch N] [--engines pg,pglite] [--pg URL]`: the books' own work for
 * trade events, without the stream or the sandbox: `ingest` (store, project, notice; one transaction a batch) of N
 * fills (default 50,000, five an order) in batches of `batch` (default 125, about what the consumer takes at once at
 * 2,500 events a second), one batch after the other, each run on a new database. Two orders of the fills:
 * "together", an order's five fills one after the other (as `bench:events` and `npm run load` publish them), and
 * "spread", each of a batch's orders filled once a batch over five batches (as fills of many working orders reach a
 * busy desk). Prints events a second and the CPU an event: the database's (the backends serving this database, from
 * /proc; on PGlite the database runs in this process) and this process's.
 */
const EVENTS = Number(option("events") ?? 50_000);
const BATCH = Number(option("batch") ?? 125);
const ENGINES = (option("engines") ?? "pg,pglite").split(",");

type Pattern = "together" | "spread";

/** The fill the i-th event sends, as tradeFill numbers them (order ⌊n / 5⌋, its fill n mod 5). */
function fillNumber(pattern: Pattern, i: number): number {
  if (pattern === "together") return i;
  const [batch, place] = [Math.floor(i / BATCH), i % BATCH];
  return (Math.floor(batch / 5) * BATCH + place) * 5 + (batch % 5);
}

const envelope = (runId: string, n: number) =>
  fromStream(
    JSON.stringify({
      id: `${runId}-${n}`,
      timestamp: new Date().toISOString(),
      ...tradeFill(runId, n, `A${Math.floor(n / 5) % 16}`, new Date()),
    }),
  );

async function measure(pattern: Pattern, engine: Engine, dbPids: () => Promise<number[]>) {
  await prepareAppDb(engine);
  const runId = randomBytes(3).toString("hex");
  const pids = await dbPids();
  const [db0, self0, t0] = [cpuMs(pids), process.cpuUsage(), performance.now()];
  for (let i = 0; i < EVENTS; i += BATCH)
    await ingest(
      engine,
      Array.from({ length: Math.min(BATCH, EVENTS - i) }, (_, k) => envelope(runId, fillNumber(pattern, i + k))),
    );
  const seconds = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(self0);
  const perEvent = (ms: number) => `${Math.round((ms * 1000) / EVENTS)} µs`;
  return {
    fills: pattern,
    "events/s": Math.round(EVENTS / seconds),
    // Backends that connected during the run count from zero.
    "database CPU / event": pids.length ? perEvent(cpuMs([...new Set([...pids, ...(await dbPids())])]) - db0) : "(in this process)",
    "this process CPU / event": perEvent((self.user + self.system) / 1000),
  };
}

/** `measure` on a new database of the PostgreSQL server, dropped after. */
async function onServer(pattern: Pattern) {
  const admin = new pg.Client({ connectionString: pgUrl() });
  await admin.connect();
  const name = `bench_projection_${randomBytes(4).toString("hex")}`;
  await createDatabase(admin, name);
  const url = new URL(pgUrl());
  url.pathname = `/${name}`;
  const engine = await openEngine({ url: url.toString(), poolSize: 2 });
  try {
    return await measure(pattern, engine, () => backendPids(admin, name));
  } finally {
    await engine.close();
    await dropDatabase(admin, name);
    await admin.end();
  }
}

async function inPglite(pattern: Pattern) {
  const engine = await openEngine({});
  try {
    return await measure(pattern, engine, async () => []);
  } finally {
    await engine.close();
  }
}

run(async () => {
  const rows: Record<string, unknown>[] = [];
  for (const pattern of ["together", "spread"] as const) {
    if (ENGINES.includes("pg")) rows.push({ engine: "PostgreSQL server", ...(await onServer(pattern)) });
    if (ENGINES.includes("pglite")) rows.push({ engine: "PGlite (memory)", ...(await inPglite(pattern)) });
  }
  console.log(
    `\nnpm run bench:projection: ${EVENTS} trade fills in batches of ${BATCH}; load average ${os.loadavg()[0].toFixed(1)} at the end`,
  );
  console.table(rows);
});
