import "server-only";
import pino, { type DestinationStream, type Logger } from "pino";

/**
 * Structured JSON logs of the Broker client: one line per upstream call. The call log only ever gets the fields
 * listed in CallLog, never headers, query or body, so the secret, the token, the signature and W-8BEN data cannot
 * reach it; the redact list is a second line of defence for anything logged by mistake.
 */
export interface CallLog {
  operation: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId?: string;
  attempt: number;
  errorCode?: string;
  retrying?: boolean;
  retryInMs?: number;
}

export const REDACT_PATHS = [
  "appSecret",
  "secret",
  "token",
  "accessToken",
  "signature",
  "headers",
  "body",
  "query",
  "w8ben_info",
  "*.appSecret",
  "*.secret",
  "*.token",
  "*.signature",
  "*.w8ben_info",
  "*.headers",
  "*.body",
  "*.*.token",
  "*.*.w8ben_info",
  '*["x-access-token"]',
  '*["x-signature"]',
];

export function createBrokerLogger(opts: { level?: string; destination?: DestinationStream } = {}): Logger {
  const options = {
    name: "broker",
    level: opts.level ?? process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
    base: undefined,
    redact: { paths: REDACT_PATHS, remove: true },
  };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}
