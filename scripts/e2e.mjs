#!/usr/bin/env node
// Runs the Playwright tests in Debian's Chromium headless shell (and nginx, for the cluster spec), installing them with apt when missing
// and allowed: the whole suite in shards that run at once (below), or the spec files given as one run.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { ensureNginx } from "./cluster-lib.mjs";
import { onlyFile, specFiles, splitSpecs } from "./e2e-shards.mjs";
import { bin, buildIfStale, root } from "./lib.mjs";

// Chromium's headless shell, not the full browser in headless mode: the same Blink for about half of the full browser's
// CPU per page (62 s against 116 s over three spec files), where the browser was half of the end-to-end run's CPU.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium is missing at ${CHROMIUM}. Install Debian's chromium-headless-shell package (sudo apt-get install chromium-headless-shell) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  console.log("Installing Debian's chromium-headless-shell with apt…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium-headless-shell", "fonts-dejavu-core"],
  ]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

// e2e/cluster.spec.ts puts nginx in front of two instances where a PostgreSQL server is given: installed the same way.
if (process.env.TEST_DATABASE_URL && !ensureNginx()) process.exit(1);

/**
 * What Playwright saw of each test that failed in this run (its error-context.md: the error with its call log, and
 * the accessibility snapshot of the page or of the element), printed without the file's instructions and the test's
 * source: a CI run leaves nothing but its log.
 */
function printFailedPages(since) {
  const dir = path.join(root, "test-results");
  if (!fs.existsSync(dir)) return;
  for (const file of fs.readdirSync(dir, { recursive: true })) {
    const full = path.join(dir, file);
    if (path.basename(file) !== "error-context.md" || fs.statSync(full).mtimeMs < since) continue;
    const sections = fs.readFileSync(full, "utf8").split(/^(?=# )/m);
    const kept = sections.filter((s) => !/^# (Instructions|Test source)/.test(s)).join("");
    const lines = kept.split("\n");
    const cut = lines.length > 300 ? ` (the first 300 of ${lines.length} lines)` : "";
    console.log(`\n--- ${path.relative(root, full)}${cut}\n${lines.slice(0, 300).join("\n")}`);
    printAppWarnings(full);
  }
}

/** How far back before a failure the app's warnings are printed: a spec's data-making and the test itself. */
const LOG_WINDOW_MS = 180_000;

/**
 * The app's warnings and errors (its JSON log lines of level warn and above, playwright.config.ts writes them to the
 * run's data directory) from the last minutes before a test failed: what the server saw of the failure (a job that
 * failed, a lost stream, an upstream refusal). The last 40, each cut to 500 characters.
 */
function printAppWarnings(errorContext) {
  const shard = path.relative(path.join(root, "test-results"), errorContext).match(/^(shard\d+)\//)?.[1];
  const log = path.join(root, shard ? `.data/e2e-${shard}` : (process.env.E2E_DATA_DIR ?? ".data/e2e"), "app.log");
  if (!fs.existsSync(log)) return;
  const failedAt = fs.statSync(errorContext).mtimeMs;
  const lines = fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => {
      try {
        const entry = JSON.parse(line);
        return entry.level >= 40 && entry.time >= failedAt - LOG_WINDOW_MS && entry.time <= failedAt;
      } catch {
        return false;
      }
    });
  const shown = lines.slice(-40).map((line) => (line.length > 500 ? `${line.slice(0, 500)}…` : line));
  console.log(
    `\n--- the app's warnings in the ${LOG_WINDOW_MS / 60_000} minutes before (${lines.length}${lines.length > 40 ? ", the last 40" : ""})`,
  );
  console.log(shown.length ? shown.join("\n") : "(none)");
}

const started = Date.now();
const args = process.argv.slice(2);
const baseEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHROMIUM_PATH: CHROMIUM };

// A targeted run (spec files or options given): one Playwright run on one app, as configured.
if (args.length > 0 || Number(process.env.E2E_SHARDS ?? 2) <= 1) {
  // A fresh embedded database and sandbox for every run.
  fs.rmSync(path.join(root, process.env.E2E_DATA_DIR ?? ".data/e2e"), { recursive: true, force: true });
  const result = spawnSync(bin("playwright"), ["test", ...args], { cwd: root, stdio: "inherit", env: baseEnv });
  if (result.status !== 0) printFailedPages(started);
  process.exit(result.status ?? 1);
}

/*
 * The whole suite: the spec files split in E2E_SHARDS shards (default 2) that run at once, each against an app of
 * its own (own ports, own embedded database and sandbox), so no shard sees another's data and each spec meets the
 * same conditions as in one serial run. The split is by each file's measured minutes (e2e/durations.json), so the
 * shards end together. The app is built once, before the shards start it.
 */
if (!buildIfStale(baseEnv)) process.exit(1);
const port = Number(process.env.E2E_PORT ?? 3210);
const sandboxPort = Number(process.env.E2E_SANDBOX_PORT ?? 4210);
const plan = splitSpecs(specFiles(), Number(process.env.E2E_SHARDS ?? 2));
const runs = plan.map((shard, i) => {
  const name = `shard${i + 1}`;
  console.log(`[${name}] ${shard.files.length} spec files, about ${Math.round(shard.seconds / 60)} min when last measured`);
  const dataDir = `.data/e2e-${name}`;
  fs.rmSync(path.join(root, dataDir), { recursive: true, force: true });
  const child = spawn(bin("playwright"), ["test", ...shard.files.map(onlyFile)], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...baseEnv,
      E2E_SHARD_NAME: name,
      E2E_DATA_DIR: dataDir,
      E2E_PORT: String(port + i * 10),
      E2E_SANDBOX_PORT: String(sandboxPort + i * 10),
    },
  });
  for (const stream of [child.stdout, child.stderr]) {
    readline.createInterface({ input: stream }).on("line", (line) => console.log(`[${name}] ${line}`));
  }
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
});
const codes = await Promise.all(runs);
const failed = codes.find((c) => c !== 0);
if (failed !== undefined) printFailedPages(started);
process.exit(failed ?? 0);
