import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../free-port";
import { createDatabase, dropDatabase, streamConnected } from "./queries";

/**
 * The desk as `npm start` runs it on a PostgreSQL server (`scripts/start.mjs` with DATABASE_URL: the sandbox, the
 * consumer and job system, `next start`, each supervised in a process group of its own) on a database of its own,
 * created here and dropped at the end, with free ports and a temporary data directory. Loopback only.
 */
export interface Stack {
  app: string;
  sandbox: string;
  databaseUrl: string;
  database: string;
  root: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

async function waitFor(check: () => Promise<boolean>, what: string, ms: number) {
  const end = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what} not ready after ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function startStack(serverUrl: string, script = "scripts/start.mjs", extraEnv: Record<string, string> = {}): Promise<Stack> {
  const database = `bd_load_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await createDatabase(admin, database);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  const [port, sandboxPort, grpcPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "brokerdesk-load-"));
  let output = "";
  const root = spawn(process.execPath, [script], {
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_GRPC_PORT: String(grpcPort),
      BROKERDESK_DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const s of [root.stdout!, root.stderr!]) s.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const kill = () => {
    try {
      process.kill(root.pid!, "SIGTERM");
    } catch {
      // gone
    }
  };
  process.on("exit", kill);
  const stack: Stack = {
    app: `http://127.0.0.1:${port}`,
    sandbox: `http://127.0.0.1:${sandboxPort}`,
    databaseUrl: url.toString(),
    database,
    root,
    output: () => output,
    async stop() {
      if (root.exitCode === null) {
        const exited = new Promise((r) => root.once("exit", r));
        kill();
        await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      }
      await dropDatabase(admin, database).catch(() => undefined);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
    throw new Error(`${(error as Error).message}\n${output.slice(-3000)}`);
  }
  return stack;
}
