import "server-only";
import os from "node:os";
import pg from "pg";
import { openEngine } from "@/server/db/engine";
import { Publisher } from "./load/ingest";
import { LiveFleet } from "./load/live";
import { flag, option } from "./args";
import { loadAverage, staffLoadOptions } from "./load/options";
import { ms, percentile, Recorder, table } from "./load/recorder";
import { backendPids } from "./load/queries";
import { Resources } from "./load/resources";
import { startStack, type Stack } from "./load/stack";
import { Desk, signInFleet, work } from "./load/staff";
import { run } from "./bench/run";

/**
 * `npm run load [-- --sessions 50 --seconds 60 --live 200 --think-ms 2000 --events-rate 2500 --cluster --pg URL]`
 * (after `npm run build`): many signed-in staff sessions (mixed roles) doing what staff do against the desk as
 * `npm start` runs it (`--cluster`: as `npm run start:cluster` runs it, through the balancer) on a database of its
 * own on the PostgreSQL server, while live connections stay open, change notices are probed through them, and
 * customers' trade events stream in from the sandbox at `--events-rate` a second. Prints per page and
 * per action the requests, errors and p50 / p95 / p99 of the time to the whole answer (loopback) and, for the data
 * routes, of the server's own time (their `Server-Timing`, which the data-route target is judged on), the live
 * channel's delivery times, the ingest rate, and the CPU and memory of every process of the desk; then the targets
 * of issue 30. Bounded in time, loopback only; everything it started is stopped and its database dropped.
 */
const { SESSIONS, LIVE, THINK_MS, PG_URL, EVENTS_RATE } = staffLoadOptions({ live: 200, eventsRate: 2500 });
const SECONDS = Number(option("seconds", "60"));
const CLUSTER = flag("cluster");

async function main() {
  console.log(
    `npm run load: ${SESSIONS} sessions, ${LIVE} live connections, ${SECONDS} s, think ${THINK_MS} ms; load average ${loadAverage()}`,
  );
  console.log(`Starting the desk (${CLUSTER ? "npm run start:cluster" : "npm start"} on a database of its own)…`);
  const stack: Stack = await startStack(PG_URL, { cluster: CLUSTER, logLevel: "error" });
  const db = await openEngine({ url: stack.databaseUrl, poolSize: 2 });
  const monitor = new pg.Client({ connectionString: PG_URL });
  await monitor.connect();
  const recorder = new Recorder();
  const desk = new Desk(recorder);
  const live = new LiveFleet();
  try {
    const sessions = await signInFleet(stack.app, SESSIONS, recorder);
    console.log(`${sessions.length} sessions signed in; opening ${LIVE} live connections…`);
    await live.open(
      LIVE,
      [stack.app],
      sessions.map((s) => s.cookieHeader()),
    );

    // Warm-up (not counted): the routes' first compilations and caches.
    const warm = Math.max(5, Math.round(SECONDS / 6));
    recorder.on = false;
    await Promise.all(sessions.map((s) => work(s, desk, Date.now() + warm * 1000, THINK_MS)));
    recorder.on = true;

    const resources = new Resources(stack.rootPid, () => backendPids(monitor, stack.database), stack.groupName);
    await resources.start();
    const driverCpu = process.cpuUsage();
    const driverStarted = performance.now();
    const publisher = EVENTS_RATE > 0 ? new Publisher(stack.sandbox, db, EVENTS_RATE) : undefined;
    await publisher?.start();
    const until = Date.now() + SECONDS * 1000;
    const probes = (async () => {
      while (Date.now() < until) {
        await live.probe(db);
        await new Promise((r) => setTimeout(r, 2_000));
      }
    })();
    await Promise.all([...sessions.map((s) => work(s, desk, until, THINK_MS)), probes]);
    const ingest = await publisher?.stop();
    const used = resources.stop();
    const driver = process.cpuUsage(driverCpu);
    used.push({
      name: "(the load driver itself)",
      cpuPercent: (100 * (driver.user + driver.system)) / 1000 / (performance.now() - driverStarted),
      peakRssMb: process.memoryUsage().rss / 2 ** 20,
    });
    await new Promise((r) => setTimeout(r, 2_000)); // the last probe's deliveries
    const lf = live.figures();

    const figures = recorder.figures();
    console.log(
      `\nRequests (ms; ${SECONDS} s after a ${warm} s warm-up): the time to the whole answer on loopback as the driver sees it, ` +
        `and the server's own time where it reports one (Server-Timing: the data routes)`,
    );
    const server = (f: (typeof figures)[number], v: number) => (f.server.count ? ms(v) : "");
    console.log(
      table(
        ["page / route / action", "requests", "errors", "p50", "p95", "p99", "server p50", "p95", "p99"],
        figures.map((f) => [
          f.name,
          f.requests,
          f.errors,
          ms(f.p50),
          ms(f.p95),
          ms(f.p99),
          server(f, f.server.p50),
          server(f, f.server.p95),
          server(f, f.server.p99),
        ]),
      ),
    );
    for (const f of figures.filter((x) => x.errors)) console.log(`  ${f.name}: ${f.examples.join(" | ")}`);

    console.log(`\nLive connections (a change notice on the database's channel → heard on each open connection, ms)`);
    console.log(
      table(
        ["connections", "open at end", "dropped", "probes", "deliveries", "heard", "p50", "p95", "p99", "max"],
        [[lf.connections, lf.open, lf.dropped, lf.probes, lf.expected, lf.heard, ms(lf.p50), ms(lf.p95), ms(lf.p99), ms(lf.max)]],
      ),
    );
    if (ingest) {
      console.log(
        `\nEvent ingest while the staff load ran: ${ingest.published} trade events offered at ${EVENTS_RATE}/s, ${ingest.stored} ` +
          `events stored (the market's and the desk's own included): ${Math.round(ingest.perSecond)} events/s; ` +
          `${Math.max(0, ingest.behind)} behind when the publishing stopped`,
      );
    }
    console.log(`\nThe desk's processes (CPU: 100 % = one core, average over the run; memory: peak resident)`);
    console.log(
      table(
        ["process", "CPU %", "peak RSS MB"],
        used.map((u) => [u.name, u.cpuPercent.toFixed(0), u.peakRssMb.toFixed(0)]),
      ),
    );

    const dataTimes = figures.filter((f) => f.name.startsWith("GET /api/"));
    // The measure is the server's time; the time to the whole answer (the driver's own queue included) beside it.
    const isData = (n: string) => n.startsWith("GET /api/");
    const [served, answered] = [recorder.allTimes(isData, "server"), recorder.allTimes(isData)];
    const p95 = percentile(served, 95);
    const p99 = percentile(served, 99);
    const targets: [string, string, boolean][] = [
      [`${SESSIONS} sessions with no error`, `${recorder.totalErrors} errors`, recorder.totalErrors === 0],
      [
        "page data routes p95 < 150 ms, p99 < 400 ms (server's time)",
        `p95 ${ms(p95)} ms, p99 ${ms(p99)} ms over ${served.length} of ${dataTimes.reduce((n, f) => n + f.requests, 0)} requests ` +
          `(whole answer: p95 ${ms(percentile(answered, 95))}, p99 ${ms(percentile(answered, 99))})`,
        served.length > 0 && p95 < 150 && p99 < 400,
      ],
      [
        `${LIVE} live connections, a change reaching all with p99 < 1 s`,
        `${lf.open} open, ${lf.heard} of ${lf.expected} heard, p99 ${ms(lf.p99)} ms`,
        lf.open === LIVE && lf.heard === lf.expected && lf.p99 < 1000,
      ],
    ];
    if (ingest)
      targets.push(["event ingest ≥ 2,000 events/s under the load", `${Math.round(ingest.perSecond)} events/s`, ingest.perSecond >= 2000]);
    console.log(`\nTargets (issue 30; load average at the end ${loadAverage()}, ${os.cpus().length} cores)`);
    console.log(
      table(
        ["target", "measured", "met"],
        targets.map(([t, m, ok]) => [t, m, ok ? "met" : "NOT MET"]),
      ),
    );
  } finally {
    live.close();
    await db.close();
    await monitor.end();
    await stack.stop();
  }
}

run(main);
