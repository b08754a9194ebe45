import "server-only";
import path from "node:path";
import pino from "pino";
import { surviveLostConnections } from "@/server/db/engine";
import { startSandbox } from "./index";
import { maskSecret } from "./input-limits";

/**
 * `npm run sandbox`: the sandbox alone, on SANDBOX_HOST:SANDBOX_PORT, state in PGlite or DATABASE_URL.
 * The process entry is the one place of the sandbox that reads the environment (the variables of .env.example);
 * everything below gets its settings through startSandbox's options, whose defaults the unset ones keep.
 */
function readEnv(env: NodeJS.ProcessEnv = process.env) {
  const problems: string[] = [];
  const text = (name: string) => env[name] || undefined;
  const port = (name: string, fallback: number) => {
    const n = Number(text(name) ?? fallback);
    if (!Number.isInteger(n) || n <= 0 || n > 65_535) problems.push(`  ${name}: expected a port number`);
    return n;
  };
  const flag = (name: string) => {
    const v = text(name);
    if (v !== undefined && !/^(true|false|1|0)$/.test(v)) problems.push(`  ${name}: expected true or false`);
    return v === undefined ? undefined : v === "true" || v === "1";
  };
  const seconds = (name: string) => {
    const v = text(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 3600) problems.push(`  ${name}: expected whole seconds from 1 to 3600`);
    return n;
  };
  const values = {
    logLevel: text("LOG_LEVEL") ?? "info",
    dataDir: text("BROKERDESK_DATA_DIR") ?? ".data",
    databaseUrl: text("DATABASE_URL"),
    host: text("SANDBOX_HOST") ?? "127.0.0.1",
    port: port("SANDBOX_PORT", 4100),
    grpcPort: port("SANDBOX_GRPC_PORT", 4101),
    appKey: text("SANDBOX_APP_KEY"),
    appSecret: text("SANDBOX_APP_SECRET"),
    autoConfirm2fa: flag("SANDBOX_AUTO_CONFIRM_2FA"),
    marketSeed: text("SANDBOX_MARKET_SEED"),
    fxQuoteSeconds: seconds("SANDBOX_FX_QUOTE_SECONDS"),
  };
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  return values;
}

async function main() {
  const e = readEnv();
  surviveLostConnections((msg, err) => console.error(`${msg}: ${err}`));
  const engine = e.databaseUrl ? { url: e.databaseUrl } : { dataDir: path.resolve(e.dataDir, "sandbox-db") };
  const sb = await startSandbox({
    host: e.host,
    port: e.port,
    engine,
    appKey: e.appKey,
    appSecret: e.appSecret,
    autoConfirm2fa: e.autoConfirm2fa,
    marketSeed: e.marketSeed,
    fxQuoteSeconds: e.fxQuoteSeconds,
    // Internal errors as structured JSON lines; the secret never reaches a log line.
    logger: pino({ name: "sandbox", level: e.logLevel, redact: ["*.appSecret"] }),
    // Part 2: the gRPC event stream and a market that moves every second.
    grpcPort: e.grpcPort,
    marketIntervalMs: 1000,
    warmHistory: true,
  });
  const { config } = sb.sandbox;
  console.log(`Broker API sandbox listening on ${sb.url}`);
  if (sb.grpcPort) console.log(`  events:     gRPC ${e.host}:${sb.grpcPort} (EventService.Subscribe)`);
  console.log(`  database:   ${e.databaseUrl ? "DATABASE_URL (schema sandbox)" : engine.dataDir}`);
  console.log(`  app key:    ${config.appKey}`);
  console.log(`  app secret: ${maskSecret(config.appSecret)}`);
  console.log(
    `  2FA:        ${config.autoConfirm2fa ? "tokens confirmed automatically (demo mode)" : "confirm with POST /sandbox/tokens/confirm"}`,
  );
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
