import "server-only";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { signedInBrowser } from "./bench/browser";
import { freePort } from "./free-port";
import { prepareAppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";
import { insertSyntheticOrders } from "@/server/orders/queries/synthetic";
import { run } from "./bench/run";
import { flag, option, pgUrl } from "./args";

/**
 * `npm run bench:orders:scroll [-- --pg URL] [--rows N] [--width PX] [--step PX] [--runs N] [--list N] [--back] [--gesture] [--css CSS] [--screenshot PATH]`:
 * frame times while scrolling the blotter through 100,000 orders in Chromium at 1280 px. The app runs as `npm start` does (builds first when the sources
 * changed) on a temporary database of the PostgreSQL server holding N synthetic orders; the event consumer is off,
 * so the read model is exactly those rows. A support user scrolls the list to its end, `step` px a frame, the
 * position set between frames as an input event sets it (the next pages are read as it goes); every animation
 * frame's duration is recorded. `--back` then scrolls back up over rows all read (no request, no page arriving);
 * `--gesture` scrolls with Chromium's synthetic wheel gesture at `step` × 60 px/s instead (time-based: a late frame
 * jumps further). Bounded: 240 s of scrolling a run.
 * Target: no frame over 50 ms (frames last whole vsync intervals: three is 50 ms, over 50 ms is four or more).
 * Frame times follow the machine's load (a frame over 50 ms in which the main thread was not busy is CPU taken
 * elsewhere); the scroll handler's time and the row elements created do not.
 */
const PG_URL = pgUrl();
const ROWS = Number(option("rows") ?? 100_000);
const WIDTH = Number(option("width") ?? 1280);
/** Pixels scrolled a frame: 600 (20 rows, 36,000 px/s at 60 Hz) is a hard fling; the whole list takes ~5,000 frames. */
const STEP = Math.min(Math.max(Number(option("step") ?? 600), 30), 6000);
/** Runs, each scrolling the whole list in a fresh page; the table gives their medians. */
const RUNS = Math.max(1, Number(option("runs") ?? 1));
/** Scroll with synthetic wheel input (Chromium's scroll gesture through CDP) instead of setting the position between frames. */
const GESTURE = flag("gesture");
/** After each run, scroll back up to the top: every row is read, so no request is made and no page arrives. */
const BACK = flag("back");
/** Extra CSS put in the page before scrolling: to try a style's cost without a build. */
const CSS = option("css");
/** A screenshot of the blotter before the first run scrolls it. */
const SHOT = option("screenshot");
/** Long frames described, per run. */
const LIST = Number(option("list") ?? 10);
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

interface LongFrame {
  /** The frame's number in the run, its duration and the scroll position it showed. */
  at: number;
  ms: number;
  scrollTop: number;
  /** A page of rows arrived in it. */
  page: boolean;
  /** The JS heap shrank across it (a garbage collection ran), by this many MB. */
  gcMb: number;
  /** The long animation frames (PerformanceLongAnimationFrameTiming) overlapping it: script time, style and layout, what ran. */
  loaf: { ms: number; script: number; forced: number; layout: number; scripts: string } | null;
}

interface ScrollResult {
  frames: number;
  rows: number;
  seconds: number;
  p50: number;
  p99: number;
  max: number;
  over50: number;
  over33: number;
  /** Frames of three intervals (50 ms). */
  at50: number;
  pages: number;
  pageOver50: number;
  pageMax: number;
  domRows: number;
  gcs: number;
  blank: number;
  /** The scroll handler's time (the grid's render), median and p99; row elements created while scrolling. */
  handlerP50: number;
  handlerP99: number;
  created: number;
  long: LongFrame[];
}

/**
 * Runs in the page: scroll the blotter `step` px a frame until its last row (all `rows` read) or `budgetMs`, timing
 * every animation frame. A frame over 50 ms is described: whether a page arrived in it, whether the JS heap shrank
 * across it (a collection), and what the browser's long-animation-frame entry says it spent (script, style and
 * layout). A string, so the bundler's helpers (tsx names functions) do not leak into the page.
 */
const SCROLL = `async ({ rows, step, budgetMs, gesture, back }) => {
  const scroller = document.querySelector('[data-testid="blotter-scroller"]');
  const count = () => Number(document.querySelector('[role="table"]')?.getAttribute("aria-rowcount") ?? 1) - 1;
  const heap = () => performance.memory?.usedJSHeapSize ?? 0;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  // A task of its own, after the frame: the scroll position is set between frames, as a wheel or touch input is
  // (a position set inside an animation frame callback would be painted before its scroll event runs).
  const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
  const loafs = [];
  const observer = typeof PerformanceObserver !== "undefined" && PerformanceObserver.supportedEntryTypes?.includes("long-animation-frame")
    ? new PerformanceObserver((list) => { for (const e of list.getEntries()) loafs.push(e); })
    : null;
  observer?.observe({ type: "long-animation-frame", buffered: false });
  // Frame times are whole vsync intervals (16.7 ms) give or take a fraction of a millisecond: three intervals is
  // 50 ms, not over it; over 50 ms is four or more.
  const LONG = 51;
  const frames = [];
  const long = [];
  // Frames in which a page arrived (the rows read grew): told apart, to see what the reads cost the screen.
  const loadFrames = [];
  let gcs = 0;
  // Blank frames: just before a frame is painted (a ResizeObserver's callback, after the frame's scripts and layout),
  // the rows in the DOM do not cover the part of the list on screen.
  let blank = 0;
  const group = document.querySelector('[role="rowgroup"]');
  const probe = document.body.appendChild(document.createElement("div"));
  probe.style.cssText = "position:fixed;top:0;left:0;height:1px;width:1px;visibility:hidden";
  const covered = new ResizeObserver(() => {
    const top = scroller.getBoundingClientRect().top + scroller.clientTop - group.getBoundingClientRect().top;
    const first = Math.max(0, Math.floor(top / 30));
    const last = Math.min(count() - 1, Math.floor((top + scroller.clientHeight - 1) / 30));
    let lo = Infinity;
    let hi = -1;
    for (const row of group.children) {
      if (!rowsSeen.has(row)) {
        rowsSeen.add(row);
        created++;
      }
      const i = Number(row.getAttribute("aria-rowindex")) - 2;
      if (i < lo) lo = i;
      if (i > hi) hi = i;
    }
    if (lo > first || hi < last) blank++;
  });
  covered.observe(probe);
  // The work the grid does for a scroll, without the machine's noise: the time of the scroll event's handlers
  // (the grid renders in it) and the row elements created.
  const handled = [];
  let began = 0;
  const begin = () => { began = performance.now(); };
  const end = () => { handled.push(performance.now() - began); };
  document.addEventListener("scroll", begin, { capture: true, passive: true });
  scroller.addEventListener("scroll", end, { passive: true });
  // Row elements created while scrolling (a recycled one is counted once).
  const rowsSeen = new WeakSet();
  let created = 0;
  let seen = count();
  const started = performance.now();
  let last = await frame();
  let lastHeap = heap();
  while (performance.now() - started < budgetMs) {
    if (!gesture) await task();
    if (back) {
      if (scroller.scrollTop <= 0) break;
      scroller.scrollTop -= step;
    } else {
      const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
      if (atEnd && count() >= rows) break;
      if (!gesture) scroller.scrollTop += step;
    }
    probe.style.width = probe.style.width === "1px" ? "2px" : "1px";
    const now = await frame();
    const ms = now - last;
    const h = heap();
    const gc = h < lastHeap ? (lastHeap - h) / 1048576 : 0;
    if (gc > 0) gcs++;
    frames.push(ms);
    const page = count() !== seen;
    if (page) {
      loadFrames.push(ms);
      seen = count();
    }
    if (ms > LONG) long.push({ at: frames.length, ms, scrollTop: scroller.scrollTop, page, gcMb: gc, from: last, to: now });
    last = now;
    lastHeap = h;
  }
  await frame();
  await new Promise((r) => setTimeout(r, 100));
  observer?.disconnect();
  covered.disconnect();
  document.removeEventListener("scroll", begin, { capture: true });
  scroller.removeEventListener("scroll", end);
  handled.sort((a, b) => a - b);
  probe.remove();
  for (const f of long) {
    const hits = loafs.filter((e) => e.startTime < f.to && e.startTime + e.duration > f.from);
    f.loaf = hits.length ? {
      ms: hits.reduce((s, e) => s + e.duration, 0),
      script: hits.reduce((s, e) => s + e.scripts.reduce((t, x) => t + x.duration, 0), 0),
      forced: hits.reduce((s, e) => s + e.scripts.reduce((t, x) => t + (x.forcedStyleAndLayoutDuration ?? 0), 0), 0),
      layout: hits.reduce((s, e) => s + (e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0), 0),
      scripts: hits.flatMap((e) => e.scripts.map((x) => x.invoker + " " + Math.round(x.duration))).slice(0, 4).join(", "),
    } : null;
    delete f.from;
    delete f.to;
  }
  frames.sort((a, b) => a - b);
  return {
    frames: frames.length, rows: count(), seconds: (performance.now() - started) / 1000,
    p50: frames[Math.floor(frames.length / 2)], p99: frames[Math.floor(frames.length * 0.99)], max: frames.at(-1) ?? 0,
    over50: frames.filter((f) => f > LONG).length, at50: frames.filter((f) => f > 34 && f <= LONG).length, over33: frames.filter((f) => f > 34).length,
    pages: loadFrames.length, pageOver50: loadFrames.filter((f) => f > LONG).length, pageMax: Math.max(0, ...loadFrames),
    domRows: document.querySelectorAll('[role="rowgroup"] [role="row"]').length, gcs, blank, long,
    handlerP50: handled[Math.floor(handled.length / 2)] ?? 0, handlerP99: handled[Math.floor(handled.length * 0.99)] ?? 0, created,
  };
}`;

function describe(label: string, result: ScrollResult) {
  console.log(
    `${label}: ${result.frames} frames to row ${result.rows.toLocaleString("en-US")} (${result.domRows} rows in the DOM) in ${result.seconds.toFixed(1)} s; ` +
      `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, max ${result.max.toFixed(1)} ms, ${result.over50} over 50 ms, ${result.at50} of 50 ms, ${result.over33} over 33 ms; ` +
      `${result.pages} pages (${result.pageOver50} of their frames over 50 ms, max ${result.pageMax.toFixed(1)} ms); ${result.gcs} heap drops; ` +
      `${result.blank} frames with rows missing on screen; scroll handler p50 ${result.handlerP50.toFixed(2)} ms, p99 ${result.handlerP99.toFixed(2)} ms; ` +
      `${result.created.toLocaleString("en-US")} row elements created`,
  );
  const idle = result.long.filter((f) => !f.loaf).length;
  const gc = result.long.filter((f) => f.gcMb).length;
  const paged = result.long.filter((f) => f.page).length;
  if (result.long.length)
    console.log(
      `  of the ${result.long.length} frames over 50 ms: ${paged} with a page arriving, ${gc} with a GC, ${idle} with the main thread not busy (CPU taken elsewhere)`,
    );
  for (const f of result.long.slice(0, LIST)) {
    const what = f.loaf
      ? `main thread ${f.loaf.ms.toFixed(0)} ms: script ${f.loaf.script.toFixed(0)} (of which forced style+layout ${f.loaf.forced.toFixed(0)}), style+layout+paint ${f.loaf.layout.toFixed(0)} (${f.loaf.scripts || "no script"})`
      : "main thread not busy";
    console.log(
      `  frame ${f.at} ${f.ms.toFixed(1)} ms at ${f.scrollTop} px${f.page ? ", a page arrived" : ""}${f.gcMb ? `, heap −${f.gcMb.toFixed(1)} MB (GC)` : ""}; ${what}`,
    );
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

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
      await insertSyntheticOrders(engine, {
        count: Math.min(25_000, ROWS - offset),
        offset,
        accounts: 100,
        start: new Date(Date.now() - ROWS * 1000),
      });
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
        ...process.env,
        PORT: String(port),
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_GRPC_PORT: String(await freePort()),
        DATABASE_URL: url.toString(),
        EVENTS_CONSUMER: "off",
        BROKERDESK_DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
      },
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`, 900_000);

    // Precise heap sizes: a drop across a frame tells a garbage collection ran in it.
    const { browser, context } = await signedInBrowser(base, {
      args: ["--enable-precise-memory-info"],
      viewport: { width: WIDTH, height: 900 },
    });
    try {
      const results: ScrollResult[] = [];
      const backResults: ScrollResult[] = [];
      // Several runs, each in a page of its own (a fresh heap).
      for (let run = 1; run <= RUNS; run++) {
        const page = await context.newPage();
        await page.goto("/orders?size=500");
        await page.getByTestId("blotter-scroller").waitFor();
        await page.waitForTimeout(500);
        if (CSS) await page.addStyleTag({ content: CSS });
        if (SHOT && run === 1) await page.screenshot({ path: SHOT });
        const scrolled = page.evaluate<ScrollResult>(
          `(${SCROLL})(${JSON.stringify({ rows: ROWS, step: STEP, budgetMs: 240_000, gesture: GESTURE })})`,
        );
        if (GESTURE) {
          // Wheel input as Chromium synthesises it for its own smoothness benchmarks, at step × 60 px/s, until the run ends.
          const cdp = await context.newCDPSession(page);
          let done = false;
          void scrolled.finally(() => (done = true));
          while (!done) {
            await cdp
              .send("Input.synthesizeScrollGesture", {
                x: 600,
                y: 500,
                yDistance: -STEP * 120,
                speed: STEP * 60,
                gestureSourceType: "mouse",
                preventFling: true,
              })
              .catch(() => undefined);
          }
        }
        const result = await scrolled;
        describe(`run ${run}`, result);
        results.push(result);
        if (BACK) {
          const up = await page.evaluate<ScrollResult>(
            `(${SCROLL})(${JSON.stringify({ rows: ROWS, step: STEP, budgetMs: 240_000, back: true })})`,
          );
          describe(`run ${run}, back up (every row read: no request)`, up);
          backResults.push(up);
        }
        await page.close();
      }
      const m = (f: (r: ScrollResult) => number, d = 1) => median(results.map(f)).toFixed(d);
      console.log(`\nScrolling the blotter at ${WIDTH} px, ${STEP} px a frame (Chromium, headless), median of ${RUNS} run(s):`);
      console.table({
        "rows reached": m((r) => r.rows, 0),
        "rows in the DOM at the end": m((r) => r.domRows, 0),
        frames: m((r) => r.frames, 0),
        "frame p50 (ms)": m((r) => r.p50),
        "frame p99 (ms)": m((r) => r.p99),
        "frame max (ms)": m((r) => r.max),
        "frames over 50 ms": m((r) => r.over50, 0),
        "…each run": results.map((r) => r.over50).join(" "),
        "frames of 50 ms (three intervals)": m((r) => r.at50, 0),
        ...(BACK
          ? {
              "frames over 50 ms back up (no request)": median(backResults.map((r) => r.over50)).toFixed(0),
              "…each run back up": backResults.map((r) => r.over50).join(" "),
            }
          : {}),
        "…with a page arriving": m((r) => r.pageOver50, 0),
        "frames over 33 ms": m((r) => r.over33, 0),
        "heap drops (GCs)": m((r) => r.gcs, 0),
        "frames with rows missing on screen": m((r) => r.blank, 0),
        "scroll handler p50 (ms)": m((r) => r.handlerP50, 2),
        "scroll handler p99 (ms)": m((r) => r.handlerP99, 2),
        "row elements created": m((r) => r.created, 0),
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

run(main);
