#!/usr/bin/env node
// Runs the Playwright tests in Debian's Chromium, installing it with apt when missing and allowed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { bin, root } from "./lib.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(
      `Chromium is missing at ${CHROMIUM}. Install Debian's chromium package (sudo apt-get install chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  console.log("Installing Debian's chromium with apt…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "chromium", "fonts-dejavu-core"],
  ]) {
    const r = spawnSync("apt-get", args, { stdio: "inherit", env });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

// A fresh embedded database and sandbox for every run.
fs.rmSync(path.join(root, ".data", "e2e"), { recursive: true, force: true });
const result = spawnSync(bin("playwright"), ["test", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHROMIUM_PATH: CHROMIUM },
});
process.exit(result.status ?? 1);
