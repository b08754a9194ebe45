import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";

/**
 * Structured JSON logs, one module for the whole app. Two choke points log: the action wrapper (`logger`) and the
 * Broker API client (`createLogger({ name: "broker" })`, one line per upstream call with operation, method, path,
 * status, duration, request id, attempt; never headers, query or body). Auth.js logs through it too
 * (server/auth/auth-log.ts). Redaction is a second line of defence for
 * anything logged by mistake: one list for both.
 */
export const REDACT_PATHS = [
  "password",
  "*.password",
  "secret",
  "*.secret",
  "appSecret",
  "*.appSecret",
  "app_secret",
  "*.app_secret",
  "*.*.app_secret",
  "token",
  "*.token",
  "*.*.token",
  "accessToken",
  "*.accessToken",
  "signature",
  "*.signature",
  '*["x-access-token"]',
  '*["x-signature"]',
  "w8ben_info",
  "*.w8ben_info",
  "*.*.w8ben_info",
  "headers",
  "*.headers",
  "body",
  "*.body",
  "query",
];

export function createLogger(opts: { name?: string; level?: string; destination?: DestinationStream } = {}): Logger {
  const options = {
    name: opts.name,
    level: opts.level ?? process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
    base: { service: "brokerdesk" },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}

export const logger = createLogger();
