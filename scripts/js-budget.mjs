#!/usr/bin/env node
// First-load JavaScript per page route, gzip, read from the build's output (.next), against a budget.
// With Turbopack a page's client-reference manifest lists the chunks of every segment above it (layouts, error and
// not-found boundaries) in `entryJSFiles`; the root main files of build-manifest.json load on every page. Their union,
// each file gzipped once, is what a browser downloads before the page is interactive. Route handlers ship no JS.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import zlib from "node:zlib";

export const DEFAULT_LIMIT_KB = 250;

/**
 * Tighter budgets for single routes. The home page is the desk's shell alone (layout, sidebar, header search, live
 * channel): every desk page pays for it, so a library a shared helper drags into it (as zod once came in through the
 * live channel's market topics, 32 kB gzip) is caught here rather than hidden under a page's own 250 kB.
 */
export const ROUTE_LIMITS_KB = { "/": 175 };

function pageManifests(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return pageManifests(p);
    return e.name === "page_client-reference-manifest.js" ? [p] : [];
  });
}

/** The route a manifest belongs to, as a browser sees it: route groups dropped, "/" for the root. */
export function routeOf(key) {
  const route = key
    .replace(/\/page$/, "")
    .split("/")
    .filter((s) => s && !/^\(.*\)$/.test(s))
    .join("/");
  return `/${route}`;
}

/** [{ route, files, gzipBytes }] for every page of the build in `nextDir`, largest first. */
export function measureRoutes(nextDir) {
  const build = JSON.parse(fs.readFileSync(path.join(nextDir, "build-manifest.json"), "utf8"));
  const gz = new Map();
  const size = (file) => {
    if (!gz.has(file)) gz.set(file, zlib.gzipSync(fs.readFileSync(path.join(nextDir, file))).length);
    return gz.get(file);
  };
  const routes = [];
  for (const file of pageManifests(path.join(nextDir, "server", "app"))) {
    const sandbox = { globalThis: {} };
    sandbox.globalThis = sandbox;
    vm.runInNewContext(fs.readFileSync(file, "utf8"), sandbox);
    for (const [key, manifest] of Object.entries(sandbox.__RSC_MANIFEST ?? {})) {
      if (key.startsWith("/_")) continue; // Next's own fallbacks (_not-found, _global-error)
      const files = new Set(build.rootMainFiles ?? []);
      for (const list of Object.values(manifest.entryJSFiles ?? {})) for (const f of list) files.add(f);
      const gzipBytes = [...files].reduce((sum, f) => sum + size(f), 0);
      routes.push({ route: routeOf(key), files: files.size, gzipBytes });
    }
  }
  return routes.sort((a, b) => b.gzipBytes - a.gzipBytes || a.route.localeCompare(b.route));
}

/** A route's budget in kB: its own where `routeLimits` names it, else `limitKb`. */
export function limitFor(route, limitKb = DEFAULT_LIMIT_KB, routeLimits = ROUTE_LIMITS_KB) {
  return Math.min(limitKb, routeLimits[route] ?? limitKb);
}

/** The routes over their budget (1 KB = 1,000 bytes, as the build reports sizes). */
export function overBudget(routes, limitKb = DEFAULT_LIMIT_KB, routeLimits = ROUTE_LIMITS_KB) {
  return routes.filter((r) => r.gzipBytes > limitFor(r.route, limitKb, routeLimits) * 1000);
}

function main() {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const nextDir = path.resolve(opt("--dir", ".next"));
  const limitKb = Number(opt("--limit", process.env.JS_BUDGET_KB ?? DEFAULT_LIMIT_KB));
  if (!fs.existsSync(path.join(nextDir, "build-manifest.json"))) {
    console.error(`No build in ${nextDir}: run \`npm run build\` first.`);
    process.exit(2);
  }
  const routes = measureRoutes(nextDir);
  if (!routes.length) {
    console.error(`No page manifests under ${nextDir}/server/app: is this a Turbopack build?`);
    process.exit(2);
  }
  const width = Math.max(...routes.map((r) => r.route.length), 5);
  console.log(`${"Route".padEnd(width)}  First-load JS (gzip)  Files`);
  for (const r of routes)
    console.log(`${r.route.padEnd(width)}  ${`${(r.gzipBytes / 1000).toFixed(1)} kB`.padStart(20)}  ${String(r.files).padStart(5)}`);
  const over = overBudget(routes, limitKb);
  if (over.length) {
    for (const r of over)
      console.error(
        `JS budget exceeded: ${r.route} loads ${(r.gzipBytes / 1000).toFixed(1)} kB gzip, over ${limitFor(r.route, limitKb)} kB`,
      );
    process.exit(1);
  }
  const own = Object.entries(ROUTE_LIMITS_KB).map(([route, kb]) => `${route} within ${Math.min(kb, limitKb)} kB`);
  console.log(`All ${routes.length} routes within ${limitKb} kB gzip${own.length ? ` (${own.join(", ")})` : ""}.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) main();
