import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { signedHeaders } from "@/server/wire/signing";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import { masterAccountId } from "@/server/sandbox/seed";
import { seedAccountId } from "@/server/sandbox/seed/accounts";
import { benchTrading } from "./bench-sandbox-trading";
import { option, pgUrl } from "./args";

/**
 * `npm run bench:sandbox [-- --pg URL] [--requests N]`: signed requests per second and p50/p99 latency of
 * list-accounts and create-cash-journal at 16 concurrent clients, on PGlite and on the PostgreSQL server
 * (DATABASE_URL, --pg, or postgres://postgres@127.0.0.1:5432/postgres; a temporary database is created and dropped).
 * Loopback only, bounded loops.
 */
const CONCURRENCY = 16;
const REQUESTS = Number(option("requests") ?? 1600);
const PG_URL = pgUrl();
const KEY = "brokerdesk-demo-key";
const SECRET = "brokerdesk-demo-secret";

async function call(sb: RunningSandbox, token: string, method: "GET" | "POST", p: string, query: Record<string, string>, body?: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = signedHeaders({
    appKey: KEY,
    appSecret: SECRET,
    algorithm: "HMAC-SHA256",
    path: p,
    query,
    host: new URL(sb.url).host,
    body: text,
  });
  const url = new URL(p, sb.url);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method,
    body: text,
    headers: { ...headers, "x-version": "v3", "x-access-token": token, ...(text ? { "content-type": "application/json" } : {}) },
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function scenario(name: string, total: number, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < CONCURRENCY * 2; i += 1) await run(-1 - i); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await run(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  return { name, requests: total, rps: (total / seconds).toFixed(0), p50: pct(0.5), p99: pct(0.99) };
}

async function bench(label: string, engine: { url?: string; dataDir?: string }) {
  const sb = await startSandbox({ port: 0, engine, tokenRateLimit: 1000 });
  try {
    const { token } = await call(sb, "", "POST", "/openapi/auth/token/create", {}, {});
    const run = randomBytes(3).toString("hex");
    const results = [
      await scenario("list-accounts", REQUESTS, () =>
        call(sb, token, "GET", "/broker/accounts/virtual-accounts/list", { page_size: "10" }),
      ),
      await scenario("create-cash-journal", Math.floor(REQUESTS / 2), (i) =>
        call(
          sb,
          token,
          "POST",
          "/broker/journals/cash-journals/create",
          {},
          {
            client_request_id: `bench-${run}-${i < 0 ? `w${-i}` : i}`,
            from_account: masterAccountId(),
            to_account: seedAccountId(i < 0 ? 0 : i % 30),
            amount: "1.00",
            currency: "USD",
          },
        ),
      ),
    ];
    console.log(`\n${label} (${CONCURRENCY} concurrent clients, HMAC-SHA256 signed)`);
    console.table(results.map((r) => ({ scenario: r.name, requests: r.requests, "req/s": r.rps, "p50 ms": r.p50, "p99 ms": r.p99 })));
  } finally {
    await sb.close();
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-sandbox-"));
  try {
    await bench("PGlite (embedded, on disk)", { dataDir: path.join(dir, "db") });
    await benchTrading("PGlite (embedded, on disk)", { dataDir: path.join(dir, "db-trading") }, REQUESTS);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const name = `bench_sandbox_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`\nPostgreSQL server at ${PG_URL} not reachable (${(error as Error).message}); skipped.`);
    return;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  try {
    await bench(`PostgreSQL server (${url.host}, temporary database)`, { url: url.toString() });
    await benchTrading(`PostgreSQL server (${url.host}, temporary database)`, { url: url.toString() }, REQUESTS);
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
