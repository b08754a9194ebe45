import "server-only";
import { Writable } from "node:stream";
import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";
import type { BrokerClient } from "@/server/broker/client";
import { createLogger } from "@/server/log";
import { openEngine } from "@/server/db/engine";
import { startSandbox } from "@/server/sandbox";
import { fillAccounts } from "./bench/fill";
import { sandboxBroker } from "../tests/helpers/sandbox-broker";
import { run } from "./bench/run";

/**
 * `npm run bench:accounts`: server time of the accounts list page's data function (`listAccountsPage`, what
 * /accounts and /api/accounts run: one upstream page through the signed Broker client) with 1 and with 10,000
 * virtual accounts in a sandbox on a temporary in-memory database. The 10,000 rows are written with one SQL
 * statement into the sandbox schema (not 10,000 HTTP calls). The list asks for one page whatever the total, so
 * its time should not grow with it. Bounded loops, loopback only.
 */
const ITERATIONS = 40;
const WARMUP = 5;
const SIZES = [1, 10_000];

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { median: at(0.5), p95: at(0.95) };
}

async function time(run: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  return stats(samples);
}

async function measure(total: number) {
  const engine = await openEngine({});
  const sb = await startSandbox({ port: 0, engine, seed: false, tokenRateLimit: 1000 });
  try {
    await fillAccounts(engine, total);
    const unlimited = { limit: 1_000_000, windowMs: 1_000 };
    const client: BrokerClient = sandboxBroker(
      sb.url,
      { rateLimits: { account: unlimited, token: unlimited } },
      { logger: createLogger({ name: "broker", destination: new Writable({ write: (_c, _e, cb) => cb() }), level: "info" }) },
    );
    const list = (q: string) => () => listAccountsPage(parseAccountListParams(new URLSearchParams(q)), client);
    const first = await list("")();
    // A cursor four pages in, as "Next" produces it.
    let cursor = first.nextCursor;
    for (let i = 0; i < 3 && cursor; i++) cursor = (await list(`cursor=${cursor}`)()).nextCursor;
    const scenarios: [string, string][] = [
      ["first page, 25 rows", ""],
      ["first page, 100 rows", "size=100"],
      ["page 5 (cursor)", cursor ? `cursor=${cursor}` : ""],
      ["status = SUSPENDED", "status=SUSPENDED"],
      ["external number search", `q=${3000000 + Math.min(total, 7)}`],
      ["name search", `q=User${Math.min(total, 7)}&by=name`],
    ];
    const out: Record<string, { median: number; p95: number; rows: number }> = {};
    for (const [name, q] of scenarios) out[name] = { ...(await time(list(q))), rows: (await list(q)()).rows.length };
    return out;
  } finally {
    await sb.close();
    await engine.close();
  }
}

async function main() {
  const results = [];
  for (const total of SIZES) results.push(await measure(total));
  const f = (n: number) => n.toFixed(1).padStart(7);
  console.log(
    `listAccountsPage server time, ms (median / p95 of ${ITERATIONS} calls, after ${WARMUP} warm-up), sandbox on in-memory PGlite`,
  );
  console.log(
    `${"scenario".padEnd(26)}${SIZES.map((s) => `${s.toLocaleString("en-US")} account${s === 1 ? "" : "s"}`.padStart(32)).join("")}`,
  );
  for (const name of Object.keys(results[0])) {
    console.log(
      `${name.padEnd(26)}${results.map((r) => `${f(r[name].median)} / ${f(r[name].p95)} (${r[name].rows} rows)`.padStart(32)).join("")}`,
    );
  }
}

run(main);
