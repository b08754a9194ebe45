#!/usr/bin/env node
// Every test, in order, stopping at the first failure: typecheck, lint, format, unused exports, Vitest, Playwright in
// Debian Chromium.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

/** Adds up the JSON reports of Vitest and Playwright into one closing line. */
function summary() {
  const read = (name) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(root, "reports", name), "utf8"));
    } catch {
      return undefined;
    }
  };
  const vitest = read("vitest.json");
  // one report per Playwright shard (scripts/e2e.mjs), or one for a single run
  const shards = fs.existsSync(path.join(root, "reports"))
    ? fs.readdirSync(path.join(root, "reports")).filter((f) => /^playwright(-.+)?\.json$/.test(f))
    : [];
  const playwright = { expected: 0, flaky: 0, unexpected: 0, skipped: 0 };
  for (const f of shards) for (const k of Object.keys(playwright)) playwright[k] += read(f)?.stats?.[k] ?? 0;
  const passed = (vitest?.numPassedTests ?? 0) + playwright.expected + playwright.flaky;
  const failed = (vitest?.numFailedTests ?? 0) + playwright.unexpected;
  const skipped = (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + playwright.skipped;
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

process.env.NEXT_TELEMETRY_DISABLED = "1";
fs.rmSync(path.join(root, "reports"), { recursive: true, force: true });
const steps = [
  ["typecheck", ["run", "typecheck"]],
  ["lint", ["run", "lint"]],
  ["format (Prettier)", ["run", "format:check"]],
  // Unused files, dependencies and exports (knip.json): an export nobody imports is removed, not kept "in case".
  ["unused exports (knip)", ["run", "knip"]],
  ["unit and integration (Vitest)", ["run", "test:unit"]],
  ["end to end (Playwright)", ["run", "test:e2e"]],
  // The end-to-end run built the app: first-load JavaScript per route against its budget (250 kB gzip).
  ["JS budgets", ["run", "budget"]],
];
for (const [name, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync("npm", args, { cwd: root, stdio: "inherit" });
  console.log(`=== ${name}: ${result.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s ===`);
  if (result.status !== 0) {
    console.log(`\ntests: ${summary()}`);
    process.exit(result.status ?? 1);
  }
  // The types are checked: the build of the end-to-end step need not check them again (next.config.mjs).
  if (name === "typecheck") process.env.BROKERDESK_TYPES_CHECKED = "1";
}
console.log(`\ntests: ${summary()}`);
