import "server-only";
import pg from "pg";
import { verifyAuditChain } from "@/server/audit/verify";
import { openEngine } from "@/server/db/engine";
import { signedPost } from "./bench/load";
import { Publisher } from "./load/ingest";
import { LiveFleet } from "./load/live";
import { backendPids, booksAgainstUpstream, soakCounts, streamPosition } from "./load/queries";
import { option } from "./args";
import { loadAverage, staffLoadOptions } from "./load/options";
import { ms, percentile, Recorder, table } from "./load/recorder";
import { Resources } from "./load/resources";
import { startStack, type Stack } from "./load/stack";
import { Desk, signInFleet, work } from "./load/staff";
import { run } from "./bench/run";

/**
 * `npm run soak [-- --minutes 30 --sessions 50 --live 100 --events-rate 200 --pg URL]` (after `npm run build`): the
 * staff load of `npm run load` through the balancer of `npm run start:cluster` (two app instances, nginx, the
 * consumer, the sandbox; a database of its own on the PostgreSQL server), with upstream events streaming in, while
 * the faults staff meet happen in turn: the upstream
 * drops the event stream, is slow for a minute, refuses for a minute; an app instance is killed (its supervisor starts
 * it again); the consumer is killed. At the end the faults are cleared, the books settle, and they are compared with
 * the sandbox's state: every order, execution and movement once with the upstream's status, the audit chain
 * verified, no approval left executing. One screen of report; exit 1 when the books differ.
 */
const { SESSIONS, LIVE, THINK_MS, PG_URL, EVENTS_RATE } = staffLoadOptions({ live: 100, eventsRate: 200 });
const MINUTES = Number(option("minutes", "30"));
const SETTLE_MS = 300_000;

interface Fault {
  name: string;
  /** Starts the fault; returns what ends it (undefined: it ends by itself). */
  run(s: Stack): Promise<(() => Promise<void>) | undefined>;
  /** How long the window of its effects is counted (ms). */
  window: number;
}

const control = async (s: Stack, p: string, body: object) => {
  const res = await signedPost(s.sandbox, p, body);
  if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
};
const MODULES = ["account", "assets", "order", "journals", "funding"];
const modules = (s: Stack, state: object) => Promise.all(MODULES.map((m) => control(s, `/sandbox/modules/${m}`, state)));
const kill = (s: Stack, name: string) => {
  const pgid = s.pgid(name);
  if (pgid) process.kill(-pgid, "SIGKILL");
};

const FAULTS: Fault[] = [
  { name: "upstream drops the event stream", window: 15_000, run: async (c) => void (await control(c, "/sandbox/events/drop", {})) },
  {
    name: "upstream slow for a minute (3 s a call)",
    window: 75_000,
    run: async (c) => {
      await modules(c, { state: "degraded", latency_ms: 3_000, error_rate: 0 });
      return () => modules(c, { state: "normal" }).then(() => undefined);
    },
  },
  { name: "app instance 1 killed (SIGKILL)", window: 20_000, run: async (c) => void kill(c, "app-1") },
  {
    name: "upstream refusing for a minute (503)",
    window: 75_000,
    run: async (c) => {
      await modules(c, { state: "outage" });
      return () => modules(c, { state: "normal" }).then(() => undefined);
    },
  },
  { name: "consumer killed (SIGKILL)", window: 20_000, run: async (c) => void kill(c, "events") },
  { name: "app instance 2 killed (SIGKILL)", window: 20_000, run: async (c) => void kill(c, "app-2") },
];

const clock = (t0: number, at: number) => {
  const s = Math.round((at - t0) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

async function main() {
  console.log(`npm run soak: ${MINUTES} min, ${SESSIONS} sessions, ${LIVE} live connections; load average ${loadAverage()}`);
  const since = new Date();
  const stack = await startStack(PG_URL, { cluster: true, logLevel: "error" });
  process.once("SIGINT", () => void stack.stop().then(() => process.exit(130)));
  const monitor = new pg.Client({ connectionString: PG_URL });
  await monitor.connect();
  const db = await openEngine({ url: stack.databaseUrl, poolSize: 2 });
  const recorder = new Recorder();
  const desk = new Desk(recorder);
  const live = new LiveFleet(true);
  let failed = false;
  try {
    const balancer = stack.app;
    const sessions = await signInFleet(balancer, SESSIONS, recorder);
    await live.open(
      LIVE,
      [balancer],
      sessions.map((s) => s.cookieHeader()),
    );
    console.log(`Cluster up (balancer ${balancer}); ${SESSIONS} sessions signed in.`);

    const resources = new Resources(stack.rootPid, () => backendPids(monitor, stack.database), stack.groupName);
    await resources.start();
    const publisher = new Publisher(stack.sandbox, db, EVENTS_RATE, "MASTER_DATA");
    await publisher.start();
    const t0 = Date.now();
    const until = t0 + MINUTES * 60_000;
    const faults: { name: string; at: number; until: number; error?: string }[] = [];
    const spacing = Math.max(30_000, (MINUTES * 60_000 - 180_000) / 12);
    const faulting = (async () => {
      for (let i = 0, at = t0 + 60_000; at + 90_000 < until; i++, at += spacing) {
        await new Promise((r) => setTimeout(r, at - Date.now()));
        const fault = FAULTS[i % FAULTS.length];
        const entry: (typeof faults)[number] = { name: fault.name, at: Date.now(), until: Date.now() + fault.window };
        faults.push(entry);
        console.log(`${clock(t0, entry.at)} ${fault.name}`);
        try {
          const end = await fault.run(stack);
          if (end) setTimeout(() => void end().catch((e: Error) => (entry.error = e.message)), 60_000);
        } catch (error) {
          entry.error = (error as Error).message;
        }
      }
    })();
    const probes = (async () => {
      while (Date.now() < until) {
        await live.probe(db).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 5_000));
      }
    })();
    await Promise.all([...sessions.map((s) => work(s, desk, until, THINK_MS)), probes, faulting]);
    const ingest = await publisher.stop();
    const used = resources.stop();
    live.close();

    // Settle: faults cleared, the consumer caught up, then the books compared until they agree (or SETTLE_MS).
    await modules(stack, { state: "normal" });
    await control(stack, "/sandbox/faults/clear", {});
    const settleStart = Date.now();
    let differences = await booksAgainstUpstream(db, since);
    while (Date.now() - settleStart < SETTLE_MS) {
      const pos = await streamPosition(db);
      differences = await booksAgainstUpstream(db, since);
      if (pos.upstream === pos.books && differences.length === 0) break;
      await new Promise((r) => setTimeout(r, 5_000));
    }
    const settled = Date.now() - settleStart;
    const chain = await verifyAuditChain(db, { mode: "full", checkpoint: false });
    const counts = await soakCounts(db);
    const executing = counts["approvals executing"] ?? 0;

    // The report: one screen.
    const figures = recorder.figures();
    const reads = recorder.allTimes((n) => n.startsWith("GET ") || n.startsWith("page "));
    const windowOf = (at: number) => faults.find((f) => at >= f.at && at <= f.until)?.name ?? "no fault";
    const byWindow = new Map<string, number>();
    for (const e of recorder.log) byWindow.set(windowOf(e.at), (byWindow.get(windowOf(e.at)) ?? 0) + 1);
    const requests = figures.reduce((n, f) => n + f.requests, 0);
    const cut = (suffix: string) => figures.filter((f) => f.name.endsWith(suffix)).reduce((n, f) => n + f.requests, 0);
    const lf = live.figures();
    console.log(`\nSoak: ${MINUTES} min, ${SESSIONS} sessions through nginx to 2 instances; load average at the end ${loadAverage()}`);
    console.log(
      table(
        ["at", "fault", "errors in its window"],
        faults.map((f) => [clock(t0, f.at), f.name + (f.error ? ` (could not: ${f.error})` : ""), byWindow.get(f.name) ?? 0]),
      ),
    );
    console.log(
      `requests ${requests}, errors ${recorder.totalErrors} (outside fault windows: ${byWindow.get("no fault") ?? 0}); ` +
        `reads p50 ${ms(percentile(reads, 50))} ms, p95 ${ms(percentile(reads, 95))} ms, p99 ${ms(percentile(reads, 99))} ms; ` +
        `cut by a killed instance: ${cut("(cut, sent again)")} actions sent again, ${cut("(cut, read again)")} reads read again`,
    );
    for (const f of figures.filter((x) => x.errors)) console.log(`  ${f.name}: ${f.errors} (${f.examples.join(" | ").slice(0, 150)})`);
    console.log(
      `live: ${lf.connections} connections, ${lf.dropped} dropped and ${live.reconnects} reconnected, ${lf.heard} of ${lf.expected} probe deliveries heard (p99 ${ms(lf.p99)} ms)`,
    );
    console.log(
      `ingest: ${ingest.stored} events stored (${Math.round(ingest.perSecond)}/s); ${desk.orders.size} orders placed, ${desk.journals.size} journals`,
    );
    console.log(`processes: ${used.map((u) => `${u.name} ${u.cpuPercent.toFixed(0)} % / ${u.peakRssMb.toFixed(0)} MB`).join("; ")}`);
    console.log(
      `books vs upstream after ${Math.round(settled / 1000)} s: ${counts["upstream orders"]} orders, ${counts["upstream executions"]} executions, ` +
        `${counts["upstream movements"]} movements upstream; ` +
        (differences.length ? `DIFFER: ${differences.map((d) => `${d.what} ×${d.count} (e.g. ${d.example})`).join("; ")}` : "equal"),
    );
    console.log(
      `audit chain: ${chain.ok ? `verified (${chain.entries} entries)` : `BROKEN at ${chain.brokenSeq}: ${chain.reason}`}; approvals: ` +
        Object.entries(counts)
          .filter(([k]) => k.startsWith("approvals "))
          .map(([k, v]) => `${k.slice(10)} ${v}`)
          .join(", "),
    );
    failed = differences.length > 0 || !chain.ok || executing > 0;
    console.log(failed ? "SOAK FAILED" : "SOAK PASSED");
  } finally {
    live.close();
    await db.close();
    await monitor.end();
    await stack.stop();
  }
  return failed;
}

run(main);
