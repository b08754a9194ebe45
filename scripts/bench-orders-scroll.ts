import "server-only";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import pg from "pg";
import { freePort } from "./free-port";
import { prepareAppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";
import { insertSyntheticOrders } from "@/server/orders/synthetic";

/**
 * `npm run bench:orders:scroll [-- --pg URL] [--rows N] [--width PX] [--step PX]`: frame times while scrolling the blotter
 * through 100,000 orders in Chromium at 1280 px. The app runs as `npm start` does (builds first when the sources
 * changed) on a temporary database of the PostgreSQL server holding N synthetic orders; the event consumer is off,
 * so the read model is exactly those rows. A support user scrolls the list to its end, `step` px a frame (the next
 * pages are read as it goes); every animation frame's duration is recorded. Bounded: 240 s of scrolling.
 * Target: no frame over 50 ms.
 */
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const PG_URL = arg("pg") ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROWS = Number(arg("rows") ?? 100_000);
const WIDTH = Number(arg("width") ?? 1280);
/** Pixels scrolled a frame: 600 (20 rows, 36,000 px/s at 60 Hz) is a hard fling; the whole list takes ~5,000 frames. */
const STEP = Math.min(Math.max(Number(arg("step") ?? 600), 30), 6000);
const root = path.resolve(import.meta.dirname, "..");

async function waitFor(url: string, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

interface ScrollResult {
  frames: number;
  rows: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  over50: number;
  pages: number;
  pageOver50: number;
  pageMax: number;
  domRows: number;
}

/**
 * Runs in the page: scroll the blotter `step` px a frame until its last row (all `rows` read) or `budgetMs`, timing
 * every animation frame. A string, so the bundler's helpers (tsx names functions) do not leak into the page.
 */
const SCROLL = `async ({ rows, step, budgetMs }) => {
  const scroller = document.querySelector('[data-testid="blotter-scroller"]');
  const count = () => Number(document.querySelector('[role="table"]')?.getAttribute("aria-rowcount") ?? 1) - 1;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const frames = [];
  // Frames in which a page arrived (the rows read grew): told apart, to see what the reads cost the screen.
  const loadFrames = [];
  let seen = count();
  const started = performance.now();
  let last = await frame();
  while (performance.now() - started < budgetMs) {
    const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
    if (atEnd && count() >= rows) break;
    scroller.scrollTop += step;
    const now = await frame();
    frames.push(now - last);
    if (count() !== seen) {
      loadFrames.push(now - last);
      seen = count();
    }
    last = now;
  }
  frames.sort((a, b) => a - b);
  return {
    frames: frames.length, rows: count(), seconds: (performance.now() - started) / 1000,
    p50: frames[Math.floor(frames.length / 2)], p99: frames[Math.floor(frames.length * 0.99)], max: frames.at(-1) ?? 0,
    over50: frames.filter((f) => f > 50).length,
    pages: loadFrames.length, pageOver50: loadFrames.filter((f) => f > 50).length, pageMax: Math.max(0, ...loadFrames),
    domRows: document.querySelectorAll('[role="rowgroup"] [role="row"]').length,
  };
}`;

async function main() {
  const name = `bd_bench_scroll_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bd-scroll-"));
  let app: ReturnType<typeof spawn> | undefined;
  try {
    const engine = await openEngine({ url: url.toString(), poolSize: 2 });
    await prepareAppDb(engine);
    for (let offset = 0; offset < ROWS; offset += 25_000) {
      await insertSyntheticOrders(engine, { count: Math.min(25_000, ROWS - offset), offset, accounts: 100, start: new Date(Date.now() - ROWS * 1000) });
    }
    await engine.query("ANALYZE brokerdesk.orders");
    await engine.close();
    console.log(`${ROWS.toLocaleString("en-US")} synthetic orders in ${name}`);

    const [port, sandboxPort] = [await freePort(), await freePort()];
    app = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: root,
      detached: true, // its own process group: start.mjs's children go with it
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env, PORT: String(port), SANDBOX_PORT: String(sandboxPort), SANDBOX_GRPC_PORT: String(await freePort()),
        DATABASE_URL: url.toString(), EVENTS_CONSUMER: "off", BROKERDESK_DATA_DIR: dataDir, LOG_LEVEL: "warn",
      },
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`, 900_000);

    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
    try {
      const page = await browser.newPage({ viewport: { width: WIDTH, height: 900 }, baseURL: base });
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill("support@brokerdesk.test");
      await page.getByLabel("Password").fill("brokerdesk-demo");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByTestId("current-user").waitFor();
      await page.goto("/orders?size=500");
      await page.getByTestId("blotter-scroller").waitFor();
      const result = await page.evaluate<ScrollResult>(`(${SCROLL})(${JSON.stringify({ rows: ROWS, step: STEP, budgetMs: 240_000 })})`);
      console.log(`\nScrolling the blotter at ${WIDTH} px, ${STEP} px a frame (Chromium, headless):`);
      console.table({
        "rows reached": result.rows.toLocaleString("en-US"),
        "rows in the DOM at the end": result.domRows,
        seconds: result.seconds.toFixed(1),
        frames: result.frames,
        "frame p50 (ms)": result.p50.toFixed(1),
        "frame p99 (ms)": result.p99.toFixed(1),
        "frame max (ms)": result.max.toFixed(1),
        "frames over 50 ms": result.over50,
        "pages read while scrolling": result.pages,
        "…frames with a page arriving over 50 ms": result.pageOver50,
        "…max of those (ms)": result.pageMax.toFixed(1),
      });
    } finally {
      await browser.close();
    }
  } finally {
    if (app?.pid) {
      try {
        process.kill(-app.pid, "SIGTERM");
      } catch {
        // already gone
      }
      await new Promise((r) => setTimeout(r, 3000));
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
