import "server-only";
import { getDb } from "@/server/db";
import { logger } from "@/server/log";
import { recoverStuckExecutions } from "./recover";
import { sweepExpired } from "./requests";

const holder = globalThis as unknown as { __brokerdeskApprovalSweep?: NodeJS.Timeout };

/**
 * Expires pending approval requests whose time has passed, every minute, in every app instance: the expiring UPDATE
 * returns only the rows it changed, so each expiry is audited once however many instances sweep. Also settles
 * executions whose process stopped (`recoverStuckExecutions`: asks the upstream, never sends again).
 */
export function startApprovalExpirySweep(intervalMs = 60_000): void {
  if (holder.__brokerdeskApprovalSweep) return;
  holder.__brokerdeskApprovalSweep = setInterval(() => {
    void getDb()
      .then(async (db) => {
        await sweepExpired(db);
        await recoverStuckExecutions(db);
      })
      .catch((error) => logger.warn({ err: error }, "approval sweep failed"));
  }, intervalMs);
  holder.__brokerdeskApprovalSweep.unref();
}
