import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../free-port";
// @ts-expect-error: a plain .mjs module without types
import { startCluster } from "../cluster-lib.mjs";
import { createDatabase, dropDatabase, streamConnected } from "./queries";

/**
 * The desk the load and the soak drive, on a database of its own on the PostgreSQL server (created here, dropped at
 * the end), free ports and a temporary data directory; loopback only. Either as `npm start` runs it
 * (`scripts/start.mjs`: the sandbox, the consumer and job system, one `next start`, each supervised in a process
 * group of its own) or as `npm run start:cluster` runs it (two app instances behind nginx; `app` is the balancer).
 */
export interface Stack {
  /** Where staff's browsers go: the app, or the balancer. */
  app: string;
  sandbox: string;
  databaseUrl: string;
  database: string;
  /** The process whose children are the stack's process groups, and their names where known. */
  rootPid: number;
  groupName: (pgid: number) => string | undefined;
  /** The process group of a cluster's member (sandbox, events, app-1, app-2, nginx), to kill it. */
  pgid: (member: string) => number | undefined;
  stop(): Promise<void>;
}

interface ClusterHandle {
  port: number;
  sandboxUrl: string;
  ready: Promise<void>;
  pgid(name: string): number | undefined;
  stop(): Promise<void>;
}

const MEMBERS = ["sandbox", "events", "app-1", "app-2", "nginx"];

async function waitFor(check: () => Promise<boolean>, what: string, ms: number) {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what} not ready after ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function startStack(serverUrl: string, { cluster = false, logLevel = "warn" } = {}): Promise<Stack> {
  const database = `bd_load_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await createDatabase(admin, database);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brokerdesk-load-"));
  const env = {
    ...process.env,
    DATABASE_URL: url.toString(),
    PORT: String(await freePort()),
    SANDBOX_PORT: String(await freePort()),
    SANDBOX_GRPC_PORT: String(await freePort()),
    BROKERDESK_DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
  };
  let stopStack: () => Promise<void>;
  let stack: Stack;
  if (cluster) {
    const c: ClusterHandle = startCluster({ ...env, CLUSTER_APP_PORTS: `${await freePort()},${await freePort()}` });
    stopStack = () => c.stop();
    stack = {
      app: `http://127.0.0.1:${c.port}`,
      sandbox: c.sandboxUrl,
      databaseUrl: url.toString(),
      database,
      rootPid: process.pid,
      groupName: (pgid) => MEMBERS.find((m) => c.pgid(m) === pgid),
      pgid: (m) => c.pgid(m),
      stop: () => finish(),
    };
    await c.ready.catch(async (error: Error) => {
      await finish();
      throw error;
    });
  } else {
    const root = spawn(process.execPath, ["scripts/start.mjs"], { env, detached: true, stdio: ["ignore", "inherit", "inherit"] });
    const kill = () => {
      try {
        process.kill(root.pid!, "SIGTERM");
      } catch {
        // gone
      }
    };
    process.on("exit", kill);
    stopStack = async () => {
      if (root.exitCode !== null) return;
      const exited = new Promise((r) => root.once("exit", r));
      kill();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    };
    stack = {
      app: `http://127.0.0.1:${env.PORT}`,
      sandbox: `http://127.0.0.1:${env.SANDBOX_PORT}`,
      databaseUrl: url.toString(),
      database,
      rootPid: root.pid!,
      groupName: () => undefined,
      pgid: () => undefined,
      stop: () => finish(),
    };
  }
  async function finish() {
    await stopStack();
    await dropDatabase(admin, database).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    await waitFor(async () => (await fetch(`${stack.app}/api/health`)).status === 200, "the app", 600_000);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await waitFor(() => streamConnected(db), "the consumer", 120_000);
    } finally {
      await db.end();
    }
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}
