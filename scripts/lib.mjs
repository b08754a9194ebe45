// Small helpers shared by the start and test scripts (plain Node, no build step).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const bin = (name) => path.join(root, "node_modules", ".bin", name);

export function loadDotEnv() {
  const file = path.join(root, ".env");
  if (fs.existsSync(file)) process.loadEnvFile(file);
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

export async function waitForHttp(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited with code ${child.exitCode}`);
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
