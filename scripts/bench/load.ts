import "server-only";
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Pool } from "undici";
import { signedHeaders } from "@/server/wire/signing";

/**
 * The pieces of `npm run bench`: child servers in their own process groups, one HTTP client (an undici pool, the
 * same for every figure) that signs like an integrator, and a fixed-duration load loop at N concurrent callers.
 */
export const KEY = "brokerdesk-demo-key";
export const SECRET = "brokerdesk-demo-secret";

/** POSTs `body` as JSON to `path` on `url`, signed with the demo key (HMAC-SHA256) as an integrator signs it. */
export function signedPost(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const text = JSON.stringify(body);
  const signed = signedHeaders({
    appKey: KEY,
    appSecret: SECRET,
    algorithm: "HMAC-SHA256",
    path,
    query: {},
    host: new URL(url).host,
    body: text,
  });
  return fetch(new URL(path, url), { method: "POST", body: text, headers: { ...signed, "content-type": "application/json", ...headers } });
}

export interface Child {
  url: string;
  grpcPort?: number;
  child: ChildProcess;
}

const children = new Set<ChildProcess>();

/**
 * GET `url` answers 200, and not `readingAhead` (the sandbox's health while it reads a year of daily bars after its
 * start: seconds of one core that a measured phase would count as the requests' work).
 */
async function ready(url: string): Promise<boolean> {
  const res = await fetch(url).catch(() => undefined);
  if (!res?.ok) return false;
  const body: unknown = await res.json().catch(() => null);
  return !(typeof body === "object" && body !== null && "readingAhead" in body && body.readingAhead);
}

/** Starts `script` under node + tsx (one process, its own group) and waits until GET `probe` says it is ready. */
export async function startChild(
  script: string,
  env: Record<string, string>,
  port: number,
  probe: string,
  grpcPort?: number,
): Promise<Child> {
  const child = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      "--import",
      "tsx",
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
      script,
    ],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
      cwd: path.resolve("."),
    },
  );
  children.add(child);
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    if (await ready(`${url}${probe}`)) return { url, grpcPort, child };
    if (Date.now() > end) throw new Error(`${script} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM to the child's process group, then waits (at most 10 s) for it to exit. */
export async function stopChild(c: Child): Promise<void> {
  if (c.child.exitCode !== null) return;
  const exited = new Promise((r) => c.child.once("exit", r));
  try {
    process.kill(-c.child.pid!, "SIGTERM");
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  children.delete(c.child);
}

/** On any exit of the bench, no child is left behind. */
export function stopAllOnExit() {
  const all = () => {
    for (const c of children) {
      try {
        if (c.exitCode === null) process.kill(-c.pid!, "SIGTERM");
      } catch {
        // gone
      }
    }
  };
  process.on("exit", all);
  for (const s of ["SIGINT", "SIGTERM"] as const) process.on(s, () => process.exit(130));
}

export type Caller = (method: "GET" | "POST", p: string, query?: Record<string, string>, body?: unknown) => Promise<unknown>;

/**
 * A client of one server. Every call is signed as an integrator signs (the five signing headers and x-signature over
 * host, path, query and body, a fresh nonce and timestamp each time) and carries the access token once set, whatever
 * the server: the bare reference route gets exactly the same client work per request as the sandbox and ignores it.
 */
export function client(url: string, connections: number) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const host = new URL(url).host;
  let token = "";
  const call: Caller = async (method, p, query = {}, body) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = {
      ...signedHeaders({ appKey: KEY, appSecret: SECRET, algorithm: "HMAC-SHA256", path: p, query, host, body: text }),
      "x-version": "v3",
      ...(token ? { "x-access-token": token } : {}),
      ...(text ? { "content-type": "application/json" } : {}),
    };
    const qs = new URLSearchParams(query).toString();
    const res = await pool.request({ method, path: qs ? `${p}?${qs}` : p, headers, body: text });
    const json = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`${method} ${p}: ${res.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  return {
    call,
    close: () => pool.close(),
    setToken: (t: string) => {
      token = t;
    },
  };
}

export interface Result {
  /** CPU µs per request of each group of watched processes (see `load`'s `watch`). */
  cpu: Record<string, number>;
  rps: number;
  p50: number;
  p99: number;
  count: number;
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** `concurrency` callers repeat `run(caller, i)` for `seconds` (after a warm-up of a quarter of that); req/s and latency. */
export async function load(
  concurrency: number,
  seconds: number,
  run: (caller: number, i: number) => Promise<unknown>,
  watch?: () => Promise<Record<string, number[]>>,
): Promise<Result> {
  let i = 0;
  const phase = async (ms: number, record: boolean) => {
    const latencies: number[] = [];
    const end = performance.now() + ms;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, caller) => {
        while (performance.now() < end) {
          const t = performance.now();
          await run(caller, (i += 1));
          if (record) latencies.push(performance.now() - t);
        }
      }),
    );
    return { latencies, elapsed: (performance.now() - started) / 1000 };
  };
  await phase(Math.max(300, seconds * 250), false);
  const watched = Object.entries({ client: [process.pid], ...(watch ? await watch() : {}) });
  const cpu0 = watched.map(([, pids]) => cpuMs(pids));
  const { latencies, elapsed } = await phase(seconds * 1000, true);
  const cpu = Object.fromEntries(watched.map(([k, pids], i) => [k, ((cpuMs(pids) - cpu0[i]) * 1000) / latencies.length]));
  latencies.sort((a, b) => a - b);
  return { cpu, rps: latencies.length / elapsed, p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), count: latencies.length };
}

/** BENCH_CPU_FIELD=user or sys: count only user or only system CPU time. */
const FIELD = process.env.BENCH_CPU_FIELD;

/** CPU time (user + system, ms) the given processes have used so far, from /proc (Linux); 0 for a process gone. */
export function cpuMs(pids: number[]): number {
  const tick = 10; // USER_HZ = 100 on Linux
  let total = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const [user, sys] = [Number(fields[11]), Number(fields[12])];
      total += (FIELD === "user" ? user : FIELD === "sys" ? sys : user + sys) * tick;
    } catch {
      // gone, or not Linux
    }
  }
  return total;
}
