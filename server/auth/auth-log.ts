import "server-only";
import { AuthError, CredentialsSignin } from "@auth/core/errors";
import type { Logger } from "pino";
import { logger } from "@/server/log";

/**
 * Auth.js's log in the app's structured log (server/log.ts) instead of coloured stack traces on stderr. A refused
 * sign-in is an outcome, not a fault: its audit entry says who and why (server/auth/staff.ts) and the log line at info
 * says the reason only. Every other error Auth.js reports (a session it cannot read, a misconfiguration) stays an
 * error, with its cause.
 */
export function authLogger(log: Logger = logger.child({ name: "auth" })) {
  return {
    error(error: Error) {
      if (error instanceof CredentialsSignin) return void log.info({ reason: error.code }, "sign-in refused");
      log.error({ err: error, type: error instanceof AuthError ? error.type : error.name }, "auth error");
    },
    warn(code: string) {
      log.warn({ code }, "auth warning");
    },
  };
}
