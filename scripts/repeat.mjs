#!/usr/bin/env node
// Runs Vitest test files several times in a row, by default under the load of the rest of the suite running beside
// them, and counts the runs that passed: the check a concurrency test gets before it is called done.
//
//   npm run test:repeat -- tests/events/activities-sweep.test.ts [--times 20] [--no-load] [-t "name"]
//
// The load is the whole Vitest suite but the files under test, started again each time it ends, in its own process
// group (stopped when the runs are over). TEST_DATABASE_URL reaches both, as in CI.
import { spawnSync } from "node:child_process";
import { bin, root, startGroup } from "./lib.mjs";

const args = process.argv.slice(2);
let times = 20;
let load = true;
const files = [];
const passThrough = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--times") times = Number(args[++i]);
  else if (a === "--no-load") load = false;
  else if (a === "-t") passThrough.push(a, args[++i]);
  else files.push(a);
}
if (!files.length || !Number.isInteger(times) || times < 1) {
  console.error('usage: npm run test:repeat -- FILE… [--times N] [--no-load] [-t "test name"]');
  process.exit(2);
}

let loader;
let loadRuns = 0;
let stopping = false;
function startLoad() {
  loader = startGroup(bin("vitest"), ["run", ...files.flatMap((f) => ["--exclude", f]), "--reporter=dot"], { stdio: "ignore" });
  loader.on("exit", () => {
    loadRuns += 1;
    if (!stopping) startLoad();
  });
}
const stopLoad = () => {
  stopping = true;
  loader?.stopGroup();
};
process.on("SIGINT", () => {
  stopLoad();
  process.exit(130);
});
if (load) startLoad();

let passed = 0;
let failed = 0;
for (let run = 1; run <= times; run++) {
  const started = Date.now();
  const r = spawnSync(bin("vitest"), ["run", ...files, ...passThrough, "--reporter=dot"], { cwd: root, encoding: "utf8" });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status === 0) {
    passed += 1;
    console.log(`run ${run}/${times}: passed in ${seconds} s`);
  } else {
    failed += 1;
    console.log(`run ${run}/${times}: FAILED in ${seconds} s\n${r.stdout}${r.stderr}`);
  }
}
stopLoad();
const loadNote = `under load: the rest of the suite ran beside them (${loadRuns} full runs finished, the last one stopped unfinished)`;
console.log(`\n${load ? loadNote : "without load"}`);
console.log(`repeat: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
