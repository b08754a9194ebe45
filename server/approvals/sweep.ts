import "server-only";
import { getDb } from "@/server/db";
import { sweepExpired } from "./requests";

const holder = globalThis as unknown as { __brokerdeskApprovalSweep?: NodeJS.Timeout };

/**
 * Expires pending approval requests whose time has passed, every minute, in every app instance: the expiring UPDATE
 * returns only the rows it changed, so each expiry is audited once however many instances sweep.
 */
export function startApprovalExpirySweep(intervalMs = 60_000): void {
  if (holder.__brokerdeskApprovalSweep) return;
  holder.__brokerdeskApprovalSweep = setInterval(() => {
    void getDb().then((db) => sweepExpired(db)).catch(() => undefined);
  }, intervalMs);
  holder.__brokerdeskApprovalSweep.unref();
}
