import "server-only";
import pino from "pino";

/**
 * Structured JSON logs. Two choke points log: the action wrapper and the Broker API client. Redaction is a
 * second line of defence; the callers already leave secrets out.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "brokerdesk" },
  redact: {
    paths: ["password", "*.password", "secret", "*.secret", "token", "*.token", "signature", "*.signature", "*.w8ben_info", "w8ben_info"],
    censor: "[redacted]",
  },
});
