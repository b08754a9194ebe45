#!/usr/bin/env node
// Every test, in order, stopping at the first failure: typecheck, lint, Vitest, Playwright in Debian Chromium.
import { spawnSync } from "node:child_process";
import { root } from "./lib.mjs";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const steps = [
  ["typecheck", ["run", "typecheck"]],
  ["lint", ["run", "lint"]],
  ["unit and integration (Vitest)", ["run", "test:unit"]],
  ["end to end (Playwright)", ["run", "test:e2e"]],
];
for (const [name, args] of steps) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync("npm", args, { cwd: root, stdio: "inherit" });
  console.log(`=== ${name}: ${result.status === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s ===`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
