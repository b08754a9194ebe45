import "server-only";
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { OrderFilter } from "@/lib/schemas/order-list";
import { prepareAppDb } from "@/server/db";
import { openEngine, type Engine } from "@/server/db/engine";
import { listOrders } from "@/server/orders/queries/blotter";
import { insertSyntheticOrders } from "@/server/orders/queries/synthetic";
import { run } from "./bench/run";
import { option, pgUrl } from "./args";

/**
 * `npm run bench:orders [-- --pg URL] [--runs N]`: the blotter's server time (the data function the page and
 * GET /api/orders call) at 1,000 and at 100,000 orders in the read model, on PGlite (in memory) and on the
 * PostgreSQL server (a temporary database, created and dropped). Synthetic rows are inserted directly (100
 * accounts, 8 symbols, 6 statuses). Each figure is the median (and max) of `runs` reads after one warm-up.
 * The scrolling side is `npm run bench:orders:scroll`.
 */
const PG_URL = pgUrl();
const RUNS = Math.min(Number(option("runs") ?? 15), 200);
const PAGE = 200;

const CASES: { name: string; filter: OrderFilter; second?: boolean }[] = [
  { name: "first page", filter: {} },
  { name: "second page", filter: {}, second: true },
  { name: "filtered: account", filter: { account: "SYN-ACC-7" } },
  { name: "filtered: symbol + side", filter: { symbol: "NVDA", side: "BUY" } },
  { name: "quick view: open", filter: { view: "open" } },
  { name: "quick view: rejected or failed", filter: { view: "failed" } },
];

async function time(fn: () => Promise<unknown>): Promise<{ median: number; max: number }> {
  await fn();
  const t: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return { median: t[Math.floor(t.length / 2)], max: t.at(-1)! };
}

async function measure(engine: Engine, label: string) {
  const db = await prepareAppDb(engine);
  const results: Record<string, Record<string, string>> = {};
  let have = 0;
  for (const size of [1_000, 100_000]) {
    const started = performance.now();
    // In chunks, so one statement stays small on PGlite.
    for (let offset = have; offset < size; offset += 25_000) {
      await insertSyntheticOrders(db.engine, {
        count: Math.min(25_000, size - offset),
        offset,
        accounts: 100,
        start: new Date(Date.now() - size * 1000),
        seqBase: 0,
      });
    }
    have = size;
    await db.engine.query("ANALYZE brokerdesk.orders");
    console.log(`${label}: ${size.toLocaleString("en-US")} orders inserted in ${Math.round(performance.now() - started)} ms`);
    for (const c of CASES) {
      const cursor = c.second ? (await listOrders(db.engine, c.filter, { limit: PAGE })).nextCursor : undefined;
      const r = await time(() => listOrders(db.engine, c.filter, { cursor, limit: PAGE }));
      (results[c.name] ??= {})[size.toLocaleString("en-US")] = `${r.median.toFixed(2)} ms (max ${r.max.toFixed(1)})`;
    }
  }
  console.log(`\n${label}: blotter page of ${PAGE} rows, median of ${RUNS} reads`);
  console.table(results);
}

async function main() {
  const lite = await openEngine({});
  try {
    await measure(lite, "PGlite");
  } finally {
    await lite.close();
  }

  const name = `bd_bench_orders_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch (e) {
    console.log(`\nPostgreSQL server at ${PG_URL} not reachable (${(e as Error).message}); skipped.`);
    return;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const server = await openEngine({ url: url.toString(), poolSize: 4 });
  try {
    await measure(server, "PostgreSQL server");
  } finally {
    await server.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

run(main);
