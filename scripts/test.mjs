#!/usr/bin/env node
// Every test, stopping at the first failure: typecheck, lint, format and unused exports at once; Vitest; Playwright in
// Debian Chromium; the JS budgets.
import { spawn } from "node:child_process";
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

/**
 * The steps, in groups that run one after another; the steps of a group run at once: the static checks each use one
 * core of the machine's two. The first step of a group prints as it goes, the others when they end.
 */
const groups = [
  [
    ["typecheck", ["run", "typecheck"]],
    ["lint", ["run", "lint"]],
    ["format (Prettier)", ["run", "format:check"]],
    // Unused files, dependencies and exports (knip.json): an export nobody imports is removed, not kept "in case".
    ["unused exports (knip)", ["run", "knip"]],
  ],
  [["unit and integration (Vitest)", ["run", "test:unit"]]],
  // The types are checked (above): the app's build for these tests need not check them again (next.config.mjs).
  [["end to end (Playwright)", ["run", "test:e2e"], { BROKERDESK_TYPES_CHECKED: "1" }]],
  // The end-to-end run built the app: first-load JavaScript per route against its budget (250 kB gzip).
  [["JS budgets", ["run", "budget"]]],
];

/** Runs one step: its output streamed (`live`) or kept and printed when it ends. Resolves to its exit code. */
function run([name, args, env = {}], live) {
  const started = Date.now();
  if (live) console.log(`\n=== ${name} ===`);
  const child = spawn("npm", args, {
    cwd: root,
    stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const output = [];
  if (!live) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => output.push(chunk));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      if (!live) console.log(`\n=== ${name} ===\n${Buffer.concat(output).toString().trimEnd()}`);
      console.log(`=== ${name}: ${code === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s ===`);
      resolve(code ?? 1);
    }),
  );
}

for (const group of groups) {
  const codes = await Promise.all(group.map((step, i) => run(step, i === 0)));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) {
    console.log(`\ntests: ${summary()}`);
    process.exit(failed);
  }
}
console.log(`\ntests: ${summary()}`);
