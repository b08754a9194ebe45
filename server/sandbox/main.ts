import "server-only";
import path from "node:path";
import pino from "pino";
import { env } from "@/lib/env";
import { startSandbox } from "./index";

/** `npm run sandbox`: the sandbox alone, on SANDBOX_HOST:SANDBOX_PORT, state in PGlite or DATABASE_URL. */
async function main() {
  const e = env();
  const engine = e.DATABASE_URL ? { url: e.DATABASE_URL } : { dataDir: path.resolve(e.BROKERDESK_DATA_DIR, "sandbox-db") };
  const sb = await startSandbox({
    host: e.SANDBOX_HOST,
    port: e.SANDBOX_PORT,
    engine,
    appKey: e.SANDBOX_APP_KEY,
    appSecret: e.SANDBOX_APP_SECRET,
    autoConfirm2fa: e.SANDBOX_AUTO_CONFIRM_2FA,
    // Internal errors as structured JSON lines; the secret never reaches a log line.
    logger: pino({ name: "sandbox", level: e.LOG_LEVEL, redact: ["*.appSecret"] }),
    // Part 2: the gRPC event stream and a market that moves every second.
    grpcPort: e.SANDBOX_GRPC_PORT,
    marketIntervalMs: 1000,
  });
  console.log(`Broker API sandbox listening on ${sb.url}`);
  if (sb.grpcPort) console.log(`  events:     gRPC ${e.SANDBOX_HOST}:${sb.grpcPort} (EventService.Subscribe)`);
  console.log(`  database:   ${e.DATABASE_URL ? "DATABASE_URL (schema sandbox)" : engine.dataDir}`);
  console.log(`  app key:    ${e.SANDBOX_APP_KEY}`);
  console.log(`  app secret: ${e.SANDBOX_APP_SECRET}`);
  console.log(`  2FA:        ${e.SANDBOX_AUTO_CONFIRM_2FA ? "tokens confirmed automatically (demo mode)" : "confirm with POST /sandbox/tokens/confirm"}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the sandbox`);
    await sb.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
