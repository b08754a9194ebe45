import "server-only";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { migrate, openEngine, type Engine } from "@/server/db/engine";
import { buildApp, type Logger } from "./app";
import { CLOCK_SKEW_MS } from "./auth";
import type { Sandbox, SandboxConfig } from "./context";
import { FaultStore, ModuleFaults } from "./faults";
import { NonceStore } from "./nonces";
import { seedIfEmpty } from "./seed";
import { startTradingRuntime } from "./trading";
import { warmYearOfBars } from "./market-data/screeners";

export const SANDBOX_SCHEMA = "sandbox";
export const SANDBOX_MIGRATIONS = path.join(import.meta.dirname, "migrations");

export interface StartSandboxOptions {
  host?: string;
  /** 0 = a random free port. */
  port?: number;
  /** An open engine (left open on close), or how to open one (closed on close). Default: in-memory PGlite. */
  engine?: Engine | { url?: string; dataDir?: string };
  appKey?: string;
  appSecret?: string;
  autoConfirm2fa?: boolean;
  tokenCheck?: boolean;
  tokenRateLimit?: number;
  /** Market-data calls allowed per minute per app key (upstream: 600). */
  marketDataRateLimit?: number;
  /** Seed of the simulated market's random walk. Default "brokerdesk". */
  marketSeed?: string;
  /** Lifetime of an FX quote in seconds (1–3600). Default 60. */
  fxQuoteSeconds?: number;
  now?: () => Date;
  seed?: boolean;
  logger?: Logger;
  /** gRPC event stream port (part 2): 0 = random; absent or null = no event server. */
  grpcPort?: number | null;
  /** Simulated-market step + matching period in ms; absent or 0 = only on control calls (deterministic tests). */
  marketIntervalMs?: number;
  /** Ping period of event streams in ms. Default 10000. */
  pingMs?: number;
  /** Reads a year of every stock's daily bars after start, so the first 52-week ranking is fast (main.ts: true). */
  warmHistory?: boolean;
}

export interface RunningSandbox {
  url: string;
  port: number;
  engine: Engine;
  sandbox: Sandbox;
  /** Port of the gRPC event stream, when it started. */
  grpcPort?: number;
  close(): Promise<void>;
}

/** How long calls in flight may take to finish when the sandbox closes. */
const CLOSE_GRACE_MS = 5_000;

const isEngine = (e: unknown): e is Engine => typeof (e as Engine | undefined)?.transaction === "function";

/** Opens (or takes) the database, migrates schema `sandbox`, seeds it once, and listens. */
export async function startSandbox(opts: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const ownEngine = !isEngine(opts.engine);
  const engine = isEngine(opts.engine) ? opts.engine : await openEngine(opts.engine ?? {});
  const config: SandboxConfig = {
    appKey: opts.appKey ?? "brokerdesk-demo-key",
    appSecret: opts.appSecret ?? "brokerdesk-demo-secret",
    autoConfirm2fa: opts.autoConfirm2fa ?? true,
    tokenCheck: opts.tokenCheck ?? true,
    tokenRateLimit: opts.tokenRateLimit ?? 10,
    marketDataRateLimit: opts.marketDataRateLimit ?? 600,
    marketSeed: opts.marketSeed ?? "brokerdesk",
    fxQuoteSeconds: Math.min(3600, Math.max(1, Math.floor(opts.fxQuoteSeconds ?? 60))),
    now: opts.now ?? (() => new Date()),
  };
  try {
    await migrate(engine, SANDBOX_SCHEMA, SANDBOX_MIGRATIONS);
    if (opts.seed !== false) await seedIfEmpty(engine, config);
  } catch (error) {
    if (ownEngine) await engine.close();
    throw error;
  }
  const sandbox: Sandbox = {
    config,
    engine,
    nonces: new NonceStore(CLOCK_SKEW_MS),
    faults: new FaultStore(),
    modules: new ModuleFaults(),
    holdRequests: false,
    readingAhead: false,
    calls: new Map(),
    callsByRequestId: new Map(),
  };
  const log: Logger = opts.logger ?? { error: (o, m) => console.error(m, o) };
  const app = buildApp(sandbox, log);
  const host = opts.host ?? "127.0.0.1";
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: opts.port ?? 0 }, (info: AddressInfo) =>
      resolve({ server: s, port: info.port }),
    );
    s.once("error", reject);
  }).catch(async (error: unknown) => {
    // Its port taken: the database it opened is closed before the error goes up.
    if (ownEngine) await engine.close();
    throw error;
  });
  const trading = await startTradingRuntime(
    sandbox,
    { host, grpcPort: opts.grpcPort, marketIntervalMs: opts.marketIntervalMs, pingMs: opts.pingMs },
    log,
  );
  const warming = new AbortController();
  if (opts.warmHistory) {
    sandbox.readingAhead = true;
    void warmYearOfBars(sandbox, warming.signal)
      .catch((err: unknown) => {
        if (!warming.signal.aborted) log.error({ err }, "sandbox: reading a year of daily bars failed");
      })
      .finally(() => (sandbox.readingAhead = false));
  }
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    engine,
    sandbox,
    grpcPort: trading.grpcPort,
    close: async () => {
      // New connections are refused and idle ones closed; calls in flight finish on the open database (a call cut at
      // the pool's end would be an internal error), then the trading runtime and the database stop. A connection
      // still busy after CLOSE_GRACE_MS is cut.
      const http = server as { closeIdleConnections(): void; closeAllConnections(): void };
      await new Promise<void>((resolve) => {
        // A kept-alive connection whose call has just been answered is idle: closed at the next look.
        const idle = setInterval(() => http.closeIdleConnections(), 25);
        const cut = setTimeout(() => http.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearInterval(idle);
          clearTimeout(cut);
          resolve();
        });
      });
      warming.abort();
      await trading.close();
      if (ownEngine) await engine.close();
    },
  };
}
