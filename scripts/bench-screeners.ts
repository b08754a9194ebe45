import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { startSandbox } from "@/server/sandbox";
import { warmYearOfBars } from "@/server/sandbox/market-data/screeners";
import { client } from "./bench/load";
import { run } from "./bench/run";

/**
 * `npm run bench:screeners`: the sandbox's six US screeners, each called twice on a sandbox just started (the first
 * call computes the history its ranking reads, the second finds it kept), then the 52-week ranking on a sandbox that
 * read a year of daily bars first (`warmHistory`, as `npm start` runs it): how long that reading took and the longest
 * the event loop waited meanwhile. PGlite in a temporary directory; loopback only.
 */
const SCREENERS: [string, Record<string, string>][] = [
  ["/market-data/screeners/gainers-losers/list", { rank_type: "DAY_1" }],
  ["/market-data/screeners/top-actives/list", { rank_type: "VOLUME" }],
  ["/market-data/screeners/high-dividend-ranks/list", {}],
  ["/market-data/screeners/week52-high-low/list", { rank_type: "NEAR_HIGH" }],
  ["/market-data/screeners/market-sectors/list", {}],
  ["/market-data/screeners/market-sectors-detail/list", { sector_id: "10001" }],
];
const WEEK52 = SCREENERS[3];

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await fn();
  return Math.round(performance.now() - t);
}

async function sandbox(dir: string) {
  const sb = await startSandbox({ port: 0, engine: { dataDir: dir } });
  const c = client(sb.url, 1);
  c.setToken(((await c.call("POST", "/openapi/auth/token/create", {}, {})) as { token: string }).token);
  return { sb, c, close: async () => (await c.close(), await sb.close()) };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-screeners-"));
  try {
    const cold = await sandbox(path.join(dir, "cold"));
    const rows = [];
    try {
      for (const [p, query] of SCREENERS) {
        const call = () => cold.c.call("GET", p, { category: "US_STOCK", ...query });
        rows.push({ screener: p.split("/")[3], "first call ms": await timed(call), "second call ms": await timed(call) });
      }
    } finally {
      await cold.close();
    }
    console.log("\nUS screeners on a sandbox just started (PGlite)");
    console.table(rows);

    const warm = await sandbox(path.join(dir, "warm"));
    try {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const reading = await timed(() => warmYearOfBars(warm.sb.sandbox, new AbortController().signal));
      delay.disable();
      const week52 = await timed(() => warm.c.call("GET", WEEK52[0], { category: "US_STOCK", ...WEEK52[1] }));
      console.log("\nA year of daily bars read first (warmHistory)");
      console.table([
        {
          "reading ms": reading,
          "longest event-loop wait ms": Math.round(delay.max / 1e6),
          "52-week ranking after it ms": week52,
        },
      ]);
    } finally {
      await warm.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

run(main);
