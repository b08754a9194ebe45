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
  /**
   * The desk's public address, as its users' browsers reach it (https://desk.example.com; Auth.js reads it too). The
   * status mails' links are made of it: they are composed in the job system, where no request names a host. Unset:
   * http://localhost:PORT on the embedded defaults; with a real upstream, the status mails are off
   * (server/status-mail/config.ts).
   */
  AUTH_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//i, "must be an http:// or https:// URL")
    .optional(),
  SESSION_MAX_AGE_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 7)
    .default(8),
  /** How long a command-line session lasts after `brokerdesk login` (server/cli-auth). */
  CLI_SESSION_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 7)
    .default(12),
  /** A request held for approval expires when nobody has decided it this long after it was made. */
  APPROVAL_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
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
  /** How long a sandbox FX quote lives (read by the sandbox process; listed so the app validates it too). */
  SANDBOX_FX_QUOTE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  SANDBOX_APP_KEY: z.string().min(1).default("brokerdesk-demo-key"),
  SANDBOX_APP_SECRET: z.string().min(1).default("brokerdesk-demo-secret"),
  SANDBOX_AUTO_CONFIRM_2FA: bool.default(true),
  /** The upstream's gRPC event service, host:port (the sandbox's own when no real upstream is set). */
  BROKER_EVENTS_TARGET: z
    .string()
    .regex(/^[^\s:]+:\d+$/, "must be host:port")
    .optional(),
  /** TLS to the event service: on by default for a real upstream, off for the embedded sandbox. */
  BROKER_EVENTS_TLS: z.enum(["true", "false", "1", "0"]).optional(),
  /** Where the event consumer runs: `auto` (inside the app on embedded PGlite, `npm run events` beside it on a server), or `off`. */
  EVENTS_CONSUMER: z.enum(["auto", "off"]).default("auto"),
  /** No event and no ping for this long: the stream is taken as dead and reopened. */
  EVENTS_SILENCE_MS: z.coerce.number().int().min(500).default(30_000),
  /** The longest wait between reconnection attempts (exponential backoff with full jitter up to this). */
  EVENTS_BACKOFF_MAX_MS: z.coerce.number().int().min(100).default(30_000),
  /** Proxies in front of the app that append to X-Forwarded-For (the audit trail's client IP trusts only those). */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * The assistant channels (/api/mcp, /api/skills): a browser page may call them only from the desk's own origin or
   * one of these (comma-separated origins); with hosts listed, a request naming another Host is refused (DNS rebinding).
   */
  CHANNEL_ALLOWED_ORIGINS: z.string().default(""),
  CHANNEL_ALLOWED_HOSTS: z.string().default(""),
  /** The banner across the desk shows when the stream has been down or silent for longer than this. */
  EVENTS_ALERT_AFTER_MS: z.coerce.number().int().min(0).default(30_000),
  /** Order history read per account by the first backfill. */
  EVENTS_BACKFILL_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** A movement or open order unchanged for this long gets a detail call at the next reconciliation. */
  EVENTS_RECONCILE_AFTER_MS: z.coerce.number().int().min(0).default(300_000),
  /** The reconciliation job's schedule (server/jobs), rounded to whole minutes: pg-boss's cron has a minute's resolution. */
  EVENTS_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(10_000).default(300_000),
  /**
   * The activities sweep job (the desk's copy of account activities) is scheduled this often, rounded to whole
   * minutes (at least one: pg-boss's cron has a minute's resolution), and runs at once on request.
   */
  ACTIVITIES_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** Activity listing calls per second the sweep may make: a share of the "account" group's budget (10/s), the rest left to people. */
  ACTIVITIES_SWEEP_RATE: z.coerce.number().positive().max(100).default(5),
  /** How far back the sweep's first pass over an account reaches. */
  ACTIVITIES_SWEEP_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
  /**
   * Open-orders listing calls per second the orders sweep may make (server/orders/sweep.ts): a share of the
   * order-query budget (1 a second upstream). Unset: 0.5 against a real upstream, 5 against the embedded sandbox.
   */
  ORDERS_SWEEP_RATE: z.coerce.number().positive().max(100).optional(),
  /** An account with open or recently changed orders is checked again after this long, before the others' turn. */
  ORDERS_SWEEP_HOT_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** The orders sweep lists the virtual accounts again this often, so accounts opened elsewhere join it. */
  ORDERS_SWEEP_RELIST_MS: z.coerce.number().int().min(10_000).default(600_000),
  /**
   * Opening an account or filtering the blotter by it asks for a check when the last is older than this: 0, every
   * view (so what a customer placed before it is listed); a desk with many staff on a tight budget may raise it.
   */
  ORDERS_CHECK_FRESH_MS: z.coerce.number().int().min(0).default(0),
  /**
   * Pre-trade check: a limit or stop price further than this percentage from the last price is flagged before Place
   * order (the person placing may override it; lib/pre-trade.ts).
   */
  ORDERS_PRICE_BAND_PERCENT: z.coerce.number().positive().max(1000).default(10),
  /** Calls a staff access token may make a minute (server/tokens: one window per token, shared by every app instance). */
  TOKEN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /** How often the status facility evaluates each upstream module's state (server/status; one evaluator across instances). */
  STATUS_EVAL_MS: z.coerce.number().int().min(500).max(3_600_000).default(15_000),
  /** The evidence window: calls and probes this recent count; its latest quarter decides when it has enough calls. */
  STATUS_WINDOW_MS: z.coerce.number().int().min(4_000).max(86_400_000).default(300_000),
  /** The status page (/status) without sign-in, states only. */
  STATUS_PUBLIC: z
    .enum(["true", "false", "1", "0"])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
  /**
   * The status mails' SMTP server (smtp:// or smtps://, credentials in the URL). Unset: the process that runs the
   * job system starts an SMTP server of its own on 127.0.0.1 and admins read what it received on /admin/mail.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, "must be an smtp:// or smtps:// URL")
    .optional(),
  /** The status mails' sender (From). */
  STATUS_MAIL_FROM: z.string().min(3).default("Brokerdesk status <status@brokerdesk.localhost>"),
  /** An incident's "opened" mail waits this long: a shorter flap sends nothing. */
  STATUS_MAIL_DEBOUNCE_MS: z.coerce.number().int().min(0).default(60_000),
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

/** Where and how the event consumer subscribes. */
export function eventStreamConfig(
  e: Env = env(),
): { target: string; tls: boolean; appKey: string; appSecret: string; algorithm: Env["BROKER_SIGNATURE_ALGORITHM"] } | undefined {
  const u = upstreamConfig(e);
  const target = e.BROKER_EVENTS_TARGET ?? (u.kind === "sandbox" ? `${e.SANDBOX_HOST}:${e.SANDBOX_GRPC_PORT}` : undefined);
  if (!target) return undefined;
  const tls = e.BROKER_EVENTS_TLS === undefined ? u.kind === "external" : e.BROKER_EVENTS_TLS === "true" || e.BROKER_EVENTS_TLS === "1";
  return { target, tls, appKey: u.appKey, appSecret: u.appSecret, algorithm: u.algorithm };
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
export function masterOptionLevel(e: Env = env()): {
  level?: NonNullable<Env["BROKER_MASTER_OPTION_LEVEL"]>;
  source: "config" | "sandbox" | "unknown";
} {
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
