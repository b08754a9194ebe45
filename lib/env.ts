import "server-only";
import { z } from "zod";

/** Every environment variable Brokerdesk reads, parsed once. `.env.example` lists the same set. */
const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().positive().default(3000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  BROKERDESK_DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z.string().url().optional(),
  AUTH_SECRET: z.string().min(16).optional(),
  SESSION_MAX_AGE_HOURS: z.coerce.number().positive().max(24 * 7).default(8),
  BROKER_BASE_URL: z.string().url().optional(),
  BROKER_APP_KEY: z.string().min(1).optional(),
  BROKER_APP_SECRET: z.string().min(1).optional(),
  BROKER_SIGNATURE_ALGORITHM: z.enum(["HMAC-SHA1", "HMAC-SHA256"]).default("HMAC-SHA256"),
  BROKER_PATH_STYLE: z.enum(["resource", "legacy"]).default("resource"),
  BROKER_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  BROKER_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  /** The omnibus master account, for when no virtual account exists yet to read it from. */
  BROKER_MASTER_ACCOUNT_ID: z.string().min(1).optional(),
  /** The master account's US option level (the Broker API does not publish it); caps the levels offered. */
  BROKER_MASTER_OPTION_LEVEL: z.enum(["LV1", "LV2", "LV3", "LV4"]).optional(),
  SANDBOX_HOST: z.string().default("127.0.0.1"),
  SANDBOX_PORT: z.coerce.number().int().positive().default(4100),
  SANDBOX_GRPC_PORT: z.coerce.number().int().positive().default(4101),
  /** Seed of the sandbox market's random walk: the same seed, the same prices. */
  SANDBOX_MARKET_SEED: z.string().min(1).default("brokerdesk"),
  SANDBOX_APP_KEY: z.string().min(1).default("brokerdesk-demo-key"),
  SANDBOX_APP_SECRET: z.string().min(1).default("brokerdesk-demo-secret"),
  SANDBOX_AUTO_CONFIRM_2FA: bool.default(true),
});

export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  if (env.BROKER_BASE_URL && (!env.BROKER_APP_KEY || !env.BROKER_APP_SECRET)) {
    throw new Error("Invalid configuration:\n  BROKER_APP_KEY and BROKER_APP_SECRET are required when BROKER_BASE_URL is set");
  }
  return env;
}

let cached: Env | undefined;
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Embedded defaults: no real upstream configured, so the embedded sandbox and demo data are used. */
export function isDemoMode(e: Env = env()): boolean {
  return !e.BROKER_BASE_URL;
}

/**
 * The level the embedded sandbox seeds its master account with (server/sandbox/account-store.ts; a unit test keeps
 * the two equal). Configuration, not an import: app code does not reach into the sandbox.
 */
export const EMBEDDED_MASTER_OPTION_LEVEL = "LV3" as const;

/**
 * The master account's US option level (the Broker API does not publish it): BROKER_MASTER_OPTION_LEVEL when set,
 * the embedded sandbox's level on the embedded defaults, else unknown.
 */
export function masterOptionLevel(e: Env = env()): { level?: NonNullable<Env["BROKER_MASTER_OPTION_LEVEL"]>; source: "config" | "sandbox" | "unknown" } {
  if (e.BROKER_MASTER_OPTION_LEVEL) return { level: e.BROKER_MASTER_OPTION_LEVEL, source: "config" };
  if (isDemoMode(e)) return { level: EMBEDDED_MASTER_OPTION_LEVEL, source: "sandbox" };
  return { source: "unknown" };
}

export interface UpstreamConfig {
  kind: "sandbox" | "external";
  baseUrl: string;
  appKey: string;
  appSecret: string;
  algorithm: Env["BROKER_SIGNATURE_ALGORITHM"];
  pathStyle: Env["BROKER_PATH_STYLE"];
  timeoutMs: number;
  maxRetries: number;
}

export function upstreamConfig(e: Env = env()): UpstreamConfig {
  const common = {
    algorithm: e.BROKER_SIGNATURE_ALGORITHM,
    pathStyle: e.BROKER_PATH_STYLE,
    timeoutMs: e.BROKER_TIMEOUT_MS,
    maxRetries: e.BROKER_MAX_RETRIES,
  };
  if (e.BROKER_BASE_URL) {
    return { kind: "external", baseUrl: e.BROKER_BASE_URL, appKey: e.BROKER_APP_KEY!, appSecret: e.BROKER_APP_SECRET!, ...common };
  }
  return {
    kind: "sandbox",
    baseUrl: `http://${e.SANDBOX_HOST}:${e.SANDBOX_PORT}`,
    appKey: e.SANDBOX_APP_KEY,
    appSecret: e.SANDBOX_APP_SECRET,
    ...common,
  };
}
