import "server-only";
import pg from "pg";
import { backendPids } from "./load/queries";
import { ms, percentile, Recorder, table } from "./load/recorder";
import { Resources } from "./load/resources";
import { Session } from "./load/session";
import { startStack } from "./load/stack";
import { DEMO_PASSWORD } from "./load/staff";
import { run } from "./bench/run";
import { option, pgUrl } from "./args";

/**
 * `npm run bench:routes [-- --requests 300 --pg URL]` (after `npm run build`): what one request costs the app, without
 * the queueing of `npm run load`. The desk as `npm start` runs it, on a database of its own on the PostgreSQL server;
 * one signed-in session asks each route `requests` times, one request at a time, after 30 not counted. Prints per
 * route the app's CPU milliseconds a request (its process group's CPU over the requests, from /proc) and the
 * answer's p50 / p95 on loopback. CPU a request is the figure the staff load's tail follows: one event loop serves
 * every request, so each millisecond of it is a millisecond others wait.
 */
const REQUESTS = Number(option("requests", "300"));
const PG_URL = pgUrl();

const ROUTES: { name: string; path: string; as: "compliance" | "admin" }[] = [
  { name: "GET /api/orders (50 rows)", path: "/api/orders?size=50", as: "compliance" },
  { name: "GET /api/audit (50 rows)", path: "/api/audit?size=50", as: "compliance" },
  { name: "GET /api/staff", path: "/api/staff", as: "admin" },
  { name: "GET /api/accounts (50 rows, upstream)", path: "/api/accounts?size=50", as: "compliance" },
  { name: "page /orders", path: "/orders", as: "compliance" },
  { name: "page /audit", path: "/audit", as: "compliance" },
];

async function main() {
  console.log(`npm run bench:routes: ${REQUESTS} requests a route, one at a time`);
  const stack = await startStack(PG_URL, { logLevel: "error" });
  const monitor = new pg.Client({ connectionString: PG_URL });
  await monitor.connect();
  try {
    const recorder = new Recorder();
    const sessions = {
      compliance: new Session(stack.app, "compliance@brokerdesk.test", "compliance", recorder),
      admin: new Session(stack.app, "admin@brokerdesk.test", "admin", recorder),
    };
    for (const s of Object.values(sessions)) await s.signIn(DEMO_PASSWORD);
    const rows: string[][] = [];
    for (const r of ROUTES) {
      const s = sessions[r.as];
      for (let i = 0; i < 30; i++) await s.request(r.name, r.path);
      const resources = new Resources(stack.rootPid, () => backendPids(monitor, stack.database));
      await resources.start();
      const started = performance.now();
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const t = performance.now();
        await s.request(r.name, r.path);
        times.push(performance.now() - t);
      }
      const seconds = (performance.now() - started) / 1000;
      const app = resources.stop().find((f) => f.name.startsWith("app"));
      const cpuMs = app ? (app.cpuPercent * 10 * seconds) / REQUESTS : NaN;
      times.sort((a, b) => a - b);
      rows.push([r.name, cpuMs.toFixed(1), ms(percentile(times, 50)), ms(percentile(times, 95))]);
    }
    console.log(`\n${table(["route", "app CPU ms a request", "p50 ms", "p95 ms"], rows)}`);
  } finally {
    await monitor.end();
    await stack.stop();
  }
}

run(main);
