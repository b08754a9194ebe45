import "server-only";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Pool } from "undici";
import { signedHeaders } from "@/server/wire/signing";
import { freePort } from "./free-port";
import { signedInBrowser } from "./bench/browser";
import { KEY, load, SECRET, startChild, stopAllOnExit, stopChild, type Result } from "./bench/load";
// @ts-expect-error: a plain .mjs script without types
import { measureRoutes } from "./js-budget.mjs";
import { option } from "./args";

/**
 * `npm run bench:market-data [-- --seconds N]` (after `npm run build`): req/s and p50/p99 of the desk's market data
 * routes as a signed-in browser calls them (`/api/market/US/AAPL/snapshot`, `/bars?timespan=M5`), at 16 concurrent
 * callers, beside the bare Hono route called by the same client; the upstream calls the sandbox answered meanwhile
 * (the shared poller's budget: about one snapshot a second whatever the load); and the instrument page's first-load
 * JS with the chart's own chunk, loaded after it. The app runs as `npm start` runs it (its own sandbox, a temporary
 * data directory), each server in its own process group, stopped at the end. Loopback only.
 */
const SECONDS = Number(option("seconds", "3")) || 3;
const CONCURRENCY = 16;
const root = path.resolve(".");

async function waitFor(url: string, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer`);
}

/** GETs with the session cookie through one undici pool (the same client for the bare route). */
function cookieClient(url: string, cookie: string) {
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  return {
    get: async (p: string) => {
      const res = await pool.request({ method: "GET", path: p, headers: { cookie } });
      const body = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`GET ${p}: ${res.statusCode} ${body.slice(0, 200)}`);
      return body;
    },
    close: () => pool.close(),
  };
}

async function sandboxCalls(sandboxUrl: string, reset = false): Promise<Record<string, number>> {
  const p = reset ? "/sandbox/calls/reset" : "/sandbox/calls";
  const body = reset ? "{}" : undefined;
  const headers = signedHeaders({
    appKey: KEY,
    appSecret: SECRET,
    algorithm: "HMAC-SHA256",
    path: p,
    query: {},
    host: new URL(sandboxUrl).host,
    body,
  });
  const res = await fetch(new URL(p, sandboxUrl), {
    method: reset ? "POST" : "GET",
    body,
    headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) },
  });
  return ((await res.json()) as { data?: Record<string, number> }).data ?? {};
}

function chartChunk(): { file: string; gzipBytes: number } | undefined {
  const dir = path.join(root, ".next", "static", "chunks");
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith(".js"))) {
    const text = fs.readFileSync(path.join(dir, f));
    if (text.includes("lwc-link")) return { file: f, gzipBytes: zlib.gzipSync(text).length };
  }
  return undefined;
}

async function main() {
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("No build: run `npm run build` first.");
  stopAllOnExit();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bd-market-"));
  const [port, sandboxPort, grpcPort, barePort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  let app: ChildProcess | undefined;
  const bare = await startChild("scripts/bench/bare-server.ts", { PORT: String(barePort) }, barePort, "/bare");
  try {
    app = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: root,
      detached: true,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        PORT: String(port),
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_GRPC_PORT: String(grpcPort),
        BROKERDESK_DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      },
    });
    const base = `http://127.0.0.1:${port}`;
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    await waitFor(`${base}/api/health`, 900_000);

    const { browser, context } = await signedInBrowser(base);
    const cookie = await context
      .cookies()
      .then((cookies) => cookies.map((c) => `${c.name}=${c.value}`).join("; "))
      .finally(() => browser.close());

    const desk = cookieClient(base, cookie);
    const ref = cookieClient(bare.url, cookie);
    const rows: { name: string; r: Result; upstream?: string }[] = [];
    const measure = async (name: string, get: () => Promise<unknown>, upstreamKey?: string) => {
      await sandboxCalls(sandboxUrl, true);
      const started = performance.now();
      const r = await load(CONCURRENCY, SECONDS, () => get());
      const seconds = (performance.now() - started) / 1000;
      const calls = upstreamKey ? ((await sandboxCalls(sandboxUrl))[upstreamKey] ?? 0) : undefined;
      rows.push({ name, r, upstream: calls === undefined ? undefined : `${calls} calls (${(calls / seconds).toFixed(1)}/s)` });
    };
    await measure("bare Hono route", () => ref.get("/bare"));
    // The app's own floors: a route with no session (health: one SELECT 1), and a read-model route behind the session.
    await measure("desk health route", () => desk.get("/api/health"));
    await measure("desk orders route (1 row)", () => desk.get("/api/orders?size=1"));
    await measure("desk snapshot route", () => desk.get("/api/market/US/AAPL/snapshot"), "GET /market-data/stocks/snapshots/list");
    await measure("desk bars route (M5)", () => desk.get("/api/market/US/AAPL/bars?timespan=M5"), "GET /market-data/stocks/bars/list");
    await measure("desk screener (gainers)", () => desk.get("/api/markets/gainers"), "GET /market-data/screeners/gainers-losers/list");
    await desk.close();
    await ref.close();

    console.log(`\nmarket data routes: ${CONCURRENCY} concurrent callers, ${SECONDS} s each (after a warm-up)\n`);
    console.log(
      `${"route".padEnd(26)} ${"req/s".padStart(7)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}  upstream calls during the run`,
    );
    for (const { name, r, upstream } of rows) {
      console.log(
        `${name.padEnd(26)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(1).padStart(7)} ${r.p99.toFixed(1).padStart(7)}  ${upstream ?? "—"}`,
      );
    }
    const page = (measureRoutes(path.join(root, ".next")) as { route: string; files: number; gzipBytes: number }[]).find(
      (r) => r.route === "/instruments/[market]/[symbol]",
    );
    const chunk = chartChunk();
    console.log(
      `\ninstrument page first-load JS: ${page ? (page.gzipBytes / 1000).toFixed(1) : "?"} kB gzip (${page?.files ?? "?"} files);` +
        ` the chart library's chunk, loaded after: ${chunk ? (chunk.gzipBytes / 1000).toFixed(1) : "?"} kB gzip`,
    );
  } finally {
    if (app?.pid && app.exitCode === null) {
      const exited = new Promise((r) => app!.once("exit", r));
      try {
        process.kill(-app.pid, "SIGTERM");
      } catch {
        // gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    }
    await stopChild(bare);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
