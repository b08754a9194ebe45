import "server-only";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { listActivityPage } from "@/server/activities/explorer";
import { insertSyntheticActivities } from "@/server/activities/queries/synthetic";
import { entryHash, GENESIS_HASH } from "@/server/audit/entry";
import { appendAudit } from "@/server/audit/trail";
import { verifyAuditChain } from "@/server/audit/verify";
import { prepareAppDb, type AppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";
import { run } from "./bench/run";
import { option, pgUrl } from "./args";

/**
 * `npm run bench:audit [-- --pg URL] [--runs N] [--new N] [--max-seconds S] [--only explorer|audit]`: audit chain verification time at
 * 100,000 and 1,000,000 entries, full (the whole chain) and incremental (from the last checkpoint, after `new`
 * entries were appended since it), on the PostgreSQL server (a temporary database, created and dropped) and on
 * PGlite at 100,000 only (1,000,000 is too slow to insert there). Entries with a valid chain are bulk-inserted with
 * multi-row inserts of 10,000. Incremental figures are the median of `runs`; full ones one run each. Stops adding
 * cases once `max-seconds` (default 900) have passed.
 *
 * Then the activities explorer's first page (50 rows, newest first, from the desk's copy) at 10,000 and 1,000,000
 * activities: unfiltered, by type, by account, by type and a date range, and the second page; median of 15 each, on
 * both engines. A page is one index range scan, so these must not grow with the total.
 */
const PG_URL = pgUrl();
const RUNS = Math.min(Number(option("runs") ?? 5), 50);
const NEW = Math.min(Number(option("new") ?? 100), 10_000);
const DEADLINE = Date.now() + Number(option("max-seconds") ?? 900) * 1000;
const CHUNK = 10_000;
/** `--only explorer` or `--only audit`: one of the two parts. */
const ONLY = option("only");
const ACTIONS = ["accounts.update", "orders.place", "movements.cash_journal", "session.sign_in", "accounts.reveal"];

/** Appends `count` entries after the chain's end with valid hashes, in multi-row inserts. */
async function bulkAppend(db: AppDb, count: number): Promise<void> {
  const last = await db.engine.query<{ hash: string; last_seq: string }>(
    "SELECT hash, seq::text AS last_seq FROM brokerdesk.audit_entries ORDER BY audit_entries.seq DESC LIMIT 1",
  );
  let prevHash = last.rows[0]?.hash ?? GENESIS_HASH;
  let n = Number(last.rows[0]?.last_seq ?? 0);
  const start = Date.now() - 10 * 365 * 86_400_000;
  for (let done = 0; done < count; done += CHUNK) {
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < Math.min(CHUNK, count - done); i++, n++) {
      const e = {
        at: new Date(start + n * 1000),
        actorId: null,
        actorEmail: `user${n % 40}@brokerdesk.test`,
        actorRole: "operations",
        action: ACTIONS[n % ACTIONS.length],
        target: `account:VA${String(n % 5000).padStart(6, "0")}`,
        input: { n, note: "synthetic" },
        upstreamRequestId: `req-${n}`,
        idempotencyKey: null,
        outcome: "success" as const,
        errorCode: null,
        clientIp: "10.0.0.1",
        userAgent: "bench",
      };
      const hash = entryHash(prevHash, e);
      rows.push({ ...e, at: e.at.toISOString(), prevHash, hash, n });
      prevHash = hash;
    }
    await db.engine.query(
      `INSERT INTO brokerdesk.audit_entries (at, actor_id, actor_email, actor_role, action, target, input, upstream_request_id, idempotency_key,
         outcome, error_code, client_ip, user_agent, prev_hash, hash)
       SELECT at, "actorId", "actorEmail", "actorRole", action, target, input, "upstreamRequestId", "idempotencyKey", outcome, "errorCode",
              "clientIp", "userAgent", "prevHash", hash
         FROM jsonb_to_recordset($1::jsonb) AS x(at timestamptz, "actorId" uuid, "actorEmail" text, "actorRole" text, action text,
              target text, input jsonb, "upstreamRequestId" text, "idempotencyKey" text, outcome text, "errorCode" text, "clientIp" text,
              "userAgent" text, "prevHash" text, hash text, n bigint)
        ORDER BY n`,
      [JSON.stringify(rows)],
    );
  }
}

const ms = (t: number) => (t >= 1000 ? `${(t / 1000).toFixed(2)} s` : `${t.toFixed(1)} ms`);

async function measure(db: AppDb, label: string, sizes: number[]) {
  const results: Record<string, Record<string, string>> = {};
  let have = 0;
  for (const size of sizes) {
    if (Date.now() > DEADLINE) {
      console.log(`${label}: time limit reached, ${size.toLocaleString("en-US")} skipped`);
      break;
    }
    const started = performance.now();
    await bulkAppend(db, size - have);
    have = size;
    await db.engine.query("ANALYZE brokerdesk.audit_entries");
    console.log(`${label}: ${size.toLocaleString("en-US")} entries inserted in ${ms(performance.now() - started)}`);
    const key = size.toLocaleString("en-US");

    let t = performance.now();
    const full = await verifyAuditChain(db.engine, { mode: "full" }); // also writes the checkpoint at the end
    const fullMs = performance.now() - t;
    if (!full.ok) throw new Error(`chain broken at ${full.brokenSeq}: ${full.reason}`);
    (results["full"] ??= {})[key] = `${ms(fullMs)} (${full.entries.toLocaleString("en-US")} checked)`;

    const times: number[] = [];
    let checked = 0;
    for (let r = 0; r < RUNS; r++) {
      for (let i = 0; i < NEW; i++) await appendAudit(db, { action: "bench.new", target: `n${i}`, outcome: "success" });
      have += NEW;
      t = performance.now();
      const inc = await verifyAuditChain(db.engine);
      times.push(performance.now() - t);
      if (!inc.ok) throw new Error(`chain broken at ${inc.brokenSeq}: ${inc.reason}`);
      checked = inc.entries;
    }
    times.sort((a, b) => a - b);
    (results[`incremental (+${NEW} since the checkpoint)`] ??= {})[key] =
      `${ms(times[Math.floor(times.length / 2)])} median, max ${ms(times.at(-1)!)} (${checked} checked)`;
  }
  console.log(`\n${label}: audit chain verification`);
  console.table(results);
}

const EXPLORER_CASES: [string, Parameters<typeof listActivityPage>[1]][] = [
  ["first page, no filter", {}],
  ["first page, type DEPOSIT", { type: "DEPOSIT" }],
  ["first page, one account", { account: "SYN-ACT-17" }],
  ["first page, WITHDRAW in one week", { type: "WITHDRAW", from: "2026-03-02", to: "2026-03-08" }],
];

async function measureExplorer(db: AppDb, label: string, sizes: number[]) {
  const results: Record<string, Record<string, string>> = {};
  let have = 0;
  for (const size of sizes) {
    if (Date.now() > DEADLINE) {
      console.log(`${label}: time limit reached, ${size.toLocaleString("en-US")} activities skipped`);
      break;
    }
    const started = performance.now();
    // 200,000 a statement; ids differ per statement. Row n is n seconds after the start (1M rows ≈ 11.6 days).
    for (let from = have; from < size; from += 200_000) {
      const count = Math.min(200_000, size - from);
      await insertSyntheticActivities(db.engine, {
        count,
        accounts: 1000,
        start: new Date(Date.parse("2026-03-01T00:00:00Z") + from * 1000),
        idPrefix: `B${from}-`,
      });
    }
    have = size;
    await db.engine.query("ANALYZE brokerdesk.activities");
    console.log(`${label}: ${size.toLocaleString("en-US")} activities inserted in ${ms(performance.now() - started)}`);
    const key = size.toLocaleString("en-US");
    const time = async (run: () => Promise<unknown>) => {
      for (let i = 0; i < 3; i++) await run();
      const t: number[] = [];
      for (let i = 0; i < 15; i++) {
        const s0 = performance.now();
        await run();
        t.push(performance.now() - s0);
      }
      t.sort((a, b) => a - b);
      return `${ms(t[7])} median, max ${ms(t.at(-1)!)}`;
    };
    for (const [name, filter] of EXPLORER_CASES)
      (results[name] ??= {})[key] = await time(() => listActivityPage(db.engine, filter, { limit: 50 }));
    const first = await listActivityPage(db.engine, {}, { limit: 50 });
    (results["second page, no filter"] ??= {})[key] = await time(() =>
      listActivityPage(db.engine, {}, { cursor: first.nextCursor, limit: 50 }),
    );
  }
  console.log(`\n${label}: activities explorer, one page of 50`);
  console.table(results);
}

async function main() {
  const name = `bd_bench_audit_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  let reachable = true;
  try {
    await admin.connect();
  } catch (e) {
    reachable = false;
    console.log(`PostgreSQL server at ${PG_URL} not reachable (${(e as Error).message}); skipped.`);
  }
  if (reachable) {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const server = await openEngine({ url: url.toString(), poolSize: 4 });
    try {
      const db = await prepareAppDb(server);
      if (ONLY !== "audit") await measureExplorer(db, "PostgreSQL server", [10_000, 1_000_000]);
      if (ONLY !== "explorer") await measure(db, "PostgreSQL server", [100_000, 1_000_000]);
    } finally {
      await server.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }

  const lite = await openEngine({});
  try {
    const db = await prepareAppDb(lite);
    if (ONLY !== "audit") await measureExplorer(db, "PGlite (in memory)", [10_000, 1_000_000]);
    if (ONLY !== "explorer") await measure(db, "PGlite (in memory)", [100_000]);
  } finally {
    await lite.close();
  }
}

run(main);
