import "server-only";
import path from "node:path";
import pino from "pino";
import { z } from "zod";
import { startSandbox } from "./index";

/**
 * `npm run sandbox`: the sandbox alone, on SANDBOX_HOST:SANDBOX_PORT, state in PGlite or DATABASE_URL.
 * The process entry is the one place of the sandbox that reads the environment (with the same names and defaults
 * as the app's lib/env.ts); everything below gets its settings through startSandbox's options.
 */
const flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");
const sandboxEnv = z.object({
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BROKERDESK_DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z.string().url().optional(),
  SANDBOX_HOST: z.string().default("127.0.0.1"),
  SANDBOX_PORT: z.coerce.number().int().positive().default(4100),
  SANDBOX_GRPC_PORT: z.coerce.number().int().positive().default(4101),
  SANDBOX_MARKET_SEED: z.string().min(1).default("brokerdesk"),
  SANDBOX_APP_KEY: z.string().min(1).default("brokerdesk-demo-key"),
  SANDBOX_APP_SECRET: z.string().min(1).default("brokerdesk-demo-secret"),
  SANDBOX_AUTO_CONFIRM_2FA: flag.default(true),
});

function readEnv() {
  const set = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = sandboxEnv.safeParse(set);
  if (parsed.success) return parsed.data;
  throw new Error(`Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`);
}

async function main() {
  const e = readEnv();
  const engine = e.DATABASE_URL ? { url: e.DATABASE_URL } : { dataDir: path.resolve(e.BROKERDESK_DATA_DIR, "sandbox-db") };
  const sb = await startSandbox({
    host: e.SANDBOX_HOST,
    port: e.SANDBOX_PORT,
    engine,
    appKey: e.SANDBOX_APP_KEY,
    appSecret: e.SANDBOX_APP_SECRET,
    autoConfirm2fa: e.SANDBOX_AUTO_CONFIRM_2FA,
    marketSeed: e.SANDBOX_MARKET_SEED,
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
