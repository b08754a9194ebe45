import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../scripts/free-port";

/**
 * A start command of the desk (`scripts/start.mjs`: npm start; `scripts/cluster.mjs`: npm run start:cluster) as the
 * README runs it, on a database of its own on the PostgreSQL server `server` (created here, named `bd_<kind>_…`),
 * ports free now (a stack left by an earlier run must not answer for this one) and a temporary data directory.
 * The command runs detached, in a process group of its own; what it prints is kept in `output()`.
 */
export interface OwnStack {
  /** The database's name, and a connection to the server as its administrator (to create, drop, terminate). */
  name: string;
  admin: pg.Client;
  databaseUrl: string;
  dataDir: string;
  port: number;
  sandboxPort: number;
  command: ChildProcess;
  output: () => string;
  /** Ends the command (SIGTERM to its process group, waiting up to `waitMs`), drops the database, removes the directory. */
  stop: (waitMs: number) => Promise<void>;
}

export async function startOwnStack(server: string, o: { kind: string; script: string; env?: Record<string, string> }): Promise<OwnStack> {
  const name = `bd_${o.kind}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const [port, sandboxPort, grpcPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `brokerdesk-${o.kind}-`));
  const env = {
    ...process.env,
    DATABASE_URL: url.toString(),
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_GRPC_PORT: String(grpcPort),
    BROKERDESK_DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...o.env,
  };
  let output = "";
  const command = spawn("node", [o.script], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  for (const s of [command.stdout, command.stderr]) s.on("data", (d: Buffer) => (output += d.toString()));
  return {
    name,
    admin,
    databaseUrl: url.toString(),
    dataDir,
    port,
    sandboxPort,
    command,
    output: () => output,
    async stop(waitMs) {
      if (command.pid && command.exitCode === null) {
        const exited = new Promise((r) => command.once("exit", r));
        process.kill(-command.pid, "SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, waitMs))]);
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
