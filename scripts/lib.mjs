// Small helpers shared by the start and test scripts (plain Node, no build step).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const bin = (name) => path.join(root, "node_modules", ".bin", name);

export function loadDotEnv() {
  const file = path.join(root, ".env");
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

/**
 * Sets `env.AUTH_SECRET` when unset: on the embedded sandbox, one generated once into `<dataDir>/auth-secret` (every
 * process started with this env signs and reads sessions with it). False when a real upstream is configured and none
 * was given.
 */
export function ensureAuthSecret(env, dataDir) {
  if (env.AUTH_SECRET) return true;
  if (env.BROKER_BASE_URL) {
    console.error("AUTH_SECRET is required when BROKER_BASE_URL names a real upstream (generate one: openssl rand -base64 32).");
    return false;
  }
  const file = path.join(dataDir, "auth-secret");
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600 });
  env.AUTH_SECRET = fs.readFileSync(file, "utf8").trim();
  return true;
}

/** What a production build is made of: a newer file in any of these means the build is stale. */
const SOURCES = [
  "app",
  "components",
  "lib",
  "server",
  "public",
  "auth.ts",
  "auth.config.ts",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.mjs",
  "package-lock.json",
  "postcss.config.mjs",
  "tsconfig.json",
];
function newestSource(p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(full).map((name) => newestSource(path.join(p, name))));
}

/** Builds the app (next build) when the sources changed since the last build; false when the build failed. */
export function buildIfStale(env = process.env) {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (built >= Math.max(...SOURCES.map(newestSource))) return true;
  console.log("Building Brokerdesk (the sources changed since the last build)…");
  return spawnSync(bin("next"), ["build"], { cwd: root, stdio: "inherit", env }).status === 0;
}

/** Starts a child in its own process group, so that stopping it also stops what it started. */
export function startGroup(command, args, options = {}) {
  const child = spawn(command, args, { cwd: root, stdio: "inherit", detached: true, ...options });
  child.stopGroup = (signal = "SIGTERM") => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  return child;
}

export async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/**
 * Runs a process group and starts it again when it exits on its own (a crash, a lost database it could not survive):
 * after 1 s, then 2 s, 4 s … up to 30 s, the delay starting over once a run lasted a minute. `stopGroup` ends it
 * for good (shutdown is not a crash). `env` is the process's environment (default: this one's); `onStart` hears each
 * run's child (its pid is its process group's id).
 */
export function supervise(name, command, args, { stableMs = 60_000, maxDelayMs = 30_000, env, onStart } = {}) {
  let child;
  let stopped = false;
  let failures = 0;
  let timer;
  const run = () => {
    const started = Date.now();
    child = startGroup(command, args, env ? { env } : {});
    onStart?.(child);
    child.on("exit", (code, signal) => {
      if (stopped) return;
      failures = Date.now() - started >= stableMs ? 1 : failures + 1;
      const delay = Math.min(maxDelayMs, 1000 * 2 ** (failures - 1));
      console.error(`${name} stopped (${signal ?? `code ${code}`}); starting it again in ${delay / 1000} s.`);
      timer = setTimeout(run, delay);
    });
  };
  run();
  return {
    stopGroup: (signal) => {
      stopped = true;
      clearTimeout(timer);
      child.stopGroup(signal);
    },
  };
}
