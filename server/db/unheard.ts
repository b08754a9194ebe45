import "server-only";
import { isConnectionError } from "./checkout";

/**
 * A long-running process (the consumer and job system, the sandbox) and the promises nobody awaits: pg-boss
 * completes and fails a job without awaiting the statement, so a connection lost under it is an unhandled rejection,
 * which ends a Node process. That one is logged and the process goes on (the job stays active; it expires and is
 * retried, as after a crash). Any other unhandled rejection still ends the process, for its supervisor to restart.
 */
export function surviveLostConnections(log: (msg: string, err: string) => void): void {
  process.on("unhandledRejection", (reason) => {
    if (isConnectionError(reason)) return log("a statement nobody awaited lost its database connection", String(reason));
    log("unhandled rejection; exiting", reason instanceof Error ? (reason.stack ?? reason.message) : String(reason));
    process.exit(1);
  });
}
