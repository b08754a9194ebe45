// The spec files of e2e/ split into shards that end together, by the minutes each took when last measured
// (e2e/durations.json, written by `npm run test:e2e:durations` from a whole run's reports).
import fs from "node:fs";
import path from "node:path";
import { root } from "./lib.mjs";

const DURATIONS = path.join(root, "e2e", "durations.json");

/** Every spec file of e2e/, as a path from the root (e2e/x.spec.ts). */
export function specFiles() {
  return fs
    .readdirSync(path.join(root, "e2e"))
    .filter((f) => f.endsWith(".spec.ts"))
    .sort()
    .map((f) => `e2e/${f}`);
}

/**
 * `files` in `n` shards, the longest first into the shard with the least so far (a spec not measured yet counts as the
 * median). Each file lands in exactly one shard.
 */
export function splitSpecs(files, n, seconds = readDurations()) {
  const known = files
    .map((f) => seconds[f])
    .filter((s) => typeof s === "number")
    .sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 1;
  const weight = (f) => seconds[f] ?? median;
  const shards = Array.from({ length: n }, () => ({ files: [], seconds: 0 }));
  for (const f of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const least = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    least.files.push(f);
    least.seconds += weight(f);
  }
  return shards;
}

function readDurations() {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS, "utf8"));
  } catch {
    return {};
  }
}

/** A Playwright file filter that matches this one file and no other (the CLI reads each argument as a pattern). */
export const onlyFile = (file) => `${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`;

/** The seconds each spec file took in the reports of a whole run (reports/playwright*.json), written to e2e/durations.json. */
export function recordDurations() {
  const seconds = {};
  const add = (file, ms) => (seconds[file] = (seconds[file] ?? 0) + ms / 1000);
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) for (const r of t.results ?? []) if (t.projectName !== "setup") add(file, r.duration);
    for (const s of suite.suites ?? []) walk(s, file);
  };
  const reports = fs.readdirSync(path.join(root, "reports")).filter((f) => /^playwright(-.+)?\.json$/.test(f));
  for (const name of reports) {
    const report = JSON.parse(fs.readFileSync(path.join(root, "reports", name), "utf8"));
    for (const suite of report.suites) if (suite.file.endsWith(".spec.ts")) walk(suite, `e2e/${suite.file}`);
  }
  const sorted = Object.fromEntries(
    Object.entries(seconds)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([f, s]) => [f, Math.round(s)]),
  );
  fs.writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`);
  return sorted;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const written = recordDurations();
  console.log(
    `e2e/durations.json: ${Object.keys(written).length} spec files, ${Object.values(written).reduce((a, b) => a + b, 0)} s in all`,
  );
  for (const [i, s] of splitSpecs(specFiles(), 2, written).entries())
    console.log(`shard${i + 1}: ${Math.round(s.seconds)} s, ${s.files.length} files`);
}
