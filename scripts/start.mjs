#!/usr/bin/env node
// Starts Brokerdesk: the embedded sandbox upstream when no BROKER_BASE_URL is set, a production build of the
// app when the sources changed since the last one, then the app on PORT (default 3000). Each process it starts is
// supervised: one that exits on its own is started again with backoff (lib.mjs `supervise`); SIGINT/SIGTERM stop all.
import fs from "node:fs";
import path from "node:path";
import { bin, buildIfStale, ensureAuthSecret, loadDotEnv, root, supervise, waitForHttp } from "./lib.mjs";

loadDotEnv();
const dev = process.argv.includes("--dev");
const env = process.env;
env.NEXT_TELEMETRY_DISABLED = "1";
const dataDir = path.resolve(root, env.BROKERDESK_DATA_DIR ?? ".data");
env.BROKERDESK_DATA_DIR = dataDir;
fs.mkdirSync(dataDir, { recursive: true });
const embedded = !env.BROKER_BASE_URL;

if (!ensureAuthSecret(env, dataDir)) process.exit(1);

const children = [];
function stopAll(code) {
  for (const child of children) child.stopGroup();
  fs.rmSync(path.join(dataDir, "app.pid"), { force: true });
  process.exit(code);
}
process.on("SIGINT", () => stopAll(130));
process.on("SIGTERM", () => stopAll(143));

if (embedded) {
  const sandboxUrl = `http://${env.SANDBOX_HOST ?? "127.0.0.1"}:${env.SANDBOX_PORT ?? 4100}`;
  children.push(supervise("The sandbox", bin("tsx"), ["--conditions=react-server", "server/sandbox/main.ts"]));
  await waitForHttp(`${sandboxUrl}/health`, 120_000).catch((error) => {
    console.error(String(error));
    stopAll(1);
  });
}

// With a PostgreSQL server the event consumer is a process of its own (on PGlite the app runs it: one process per database).
if (env.DATABASE_URL && (env.EVENTS_CONSUMER ?? "auto") === "auto") {
  children.push(supervise("The event consumer", bin("tsx"), ["--conditions=react-server", "server/events/main.ts"]));
}

if (!dev && !buildIfStale(env)) stopAll(1);

const port = env.PORT ?? "3000";
children.push(supervise("The app", bin("next"), [dev ? "dev" : "start", "-p", port]));
fs.writeFileSync(path.join(dataDir, "app.pid"), String(process.pid));
console.log(`Brokerdesk: http://localhost:${port}${embedded ? " (embedded sandbox upstream, demo users: see the sign-in page)" : ""}`);
