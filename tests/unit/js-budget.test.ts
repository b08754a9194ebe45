import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { measureRoutes, overBudget, ROUTE_LIMITS_KB, routeOf } from "../../scripts/js-budget.mjs";

const SCRIPT = path.resolve("scripts/js-budget.mjs");
const dirs: string[] = [];

/** A Turbopack-shaped build: root main files, and per page a client-reference manifest naming its entry chunks. */
function fakeBuild(pages: Record<string, Record<string, number>>, rootKb = 50): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "js-budget-"));
  dirs.push(dir);
  const chunk = (name: string, kb: number) => {
    fs.mkdirSync(path.join(dir, "static/chunks"), { recursive: true });
    fs.writeFileSync(path.join(dir, "static/chunks", name), randomBytes(kb * 1000)); // random bytes do not compress
    return `static/chunks/${name}`;
  };
  fs.writeFileSync(
    path.join(dir, "build-manifest.json"),
    JSON.stringify({ rootMainFiles: [chunk("main.js", rootKb)], polyfillFiles: [chunk("polyfills.js", 40)] }),
  );
  for (const [key, entries] of Object.entries(pages)) {
    const manifestDir = path.join(dir, "server/app", key.replace(/\/page$/, ""));
    fs.mkdirSync(manifestDir, { recursive: true });
    const entryJSFiles = Object.fromEntries(
      Object.entries(entries).map(([entry, kb]) => [entry, [chunk(`${entry.replace(/\W/g, "_")}.js`, kb)]]),
    );
    fs.writeFileSync(
      path.join(manifestDir, "page_client-reference-manifest.js"),
      `globalThis.__RSC_MANIFEST = globalThis.__RSC_MANIFEST || {};\nglobalThis.__RSC_MANIFEST[${JSON.stringify(key)}] = ${JSON.stringify({ entryJSFiles })};`,
    );
  }
  return dir;
}

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("first-load JS budget", () => {
  it("names routes as the browser sees them: route groups dropped", () => {
    expect(routeOf("/(desk)/orders/[id]/page")).toBe("/orders/[id]");
    expect(routeOf("/(desk)/page")).toBe("/");
  });

  it("sums the root main files and every entry chunk of a page once, gzipped, and leaves polyfills out", () => {
    const dir = fakeBuild({ "/(desk)/orders/page": { "[project]/app/layout": 30, "[project]/app/(desk)/orders/page": 20 } });
    const [orders] = measureRoutes(dir);
    expect(orders.route).toBe("/orders");
    expect(orders.files).toBe(3);
    expect(orders.gzipBytes).toBeGreaterThan(100_000);
    expect(orders.gzipBytes).toBeLessThan(102_000); // 50 + 30 + 20 kB, plus gzip's few bytes of framing; not the 40 kB polyfill
  });

  it("fails the check on an oversized route and names it; passes when every route is within", () => {
    const dir = fakeBuild({
      "/(desk)/accounts/page": { "[project]/app/(desk)/accounts/page": 20 },
      "/(desk)/reports/page": { "[project]/app/(desk)/reports/page": 300 },
    });
    expect(overBudget(measureRoutes(dir), 250).map((r: { route: string }) => r.route)).toEqual(["/reports"]);

    const failed = spawnSync(process.execPath, [SCRIPT, "--dir", dir, "--limit", "250"], { encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/JS budget exceeded: \/reports loads 35\d\.\d kB gzip, over 250 kB/);
    expect(failed.stderr).not.toContain("/accounts");

    const passed = spawnSync(process.execPath, [SCRIPT, "--dir", dir, "--limit", "400"], { encoding: "utf8" });
    expect(passed.status).toBe(0);
    expect(passed.stdout).toContain("All 2 routes within 400 kB gzip");
  });

  it("holds the desk's shell (the home page) to its own, tighter budget", () => {
    const shellKb = ROUTE_LIMITS_KB["/"];
    expect(shellKb).toBeLessThan(250);
    // 50 kB of root files: the home page 10 kB over the shell's budget, a listing far above it but within 250 kB.
    const dir = fakeBuild({
      "/(desk)/(home)/page": { "[project]/app/(desk)/layout": shellKb - 40 },
      "/(desk)/orders/page": { "[project]/app/(desk)/orders/page": 190 },
    });
    expect(overBudget(measureRoutes(dir), 250).map((r: { route: string }) => r.route)).toEqual(["/"]);

    const failed = spawnSync(process.execPath, [SCRIPT, "--dir", dir, "--limit", "250"], { encoding: "utf8" });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(new RegExp(`JS budget exceeded: / loads [\\d.]+ kB gzip, over ${shellKb} kB`));
    expect(failed.stderr).not.toContain("/orders");
  });
});
