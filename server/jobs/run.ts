import "server-only";
import { env } from "@/lib/env";
import { broker } from "@/server/broker";
import type { AppDb } from "@/server/db";
import { logger } from "@/server/log";
import { startMailDelivery } from "@/server/status-mail/run";
import { setProcessBoss } from "./index";
import { startJobs, type JobsHandle } from "./runtime";

/** Starts the job system from the configuration in the process that runs the background work (PGlite: the app; a server: `npm run events`). */
export async function startConfiguredJobs(db: AppDb): Promise<JobsHandle> {
  const e = env();
  const log = logger.child({ component: "jobs" });
  const mail = await startMailDelivery(db.engine, (level, msg, extra) => log[level](extra ?? {}, msg));
  const handle = await startJobs({
    deps: {
      db,
      client: broker(),
      log: (level, msg, extra) => log[level](extra ?? {}, msg),
      backfillDays: e.EVENTS_BACKFILL_DAYS,
      reconcileAfterMs: e.EVENTS_RECONCILE_AFTER_MS,
      reconcileIntervalMs: e.EVENTS_RECONCILE_INTERVAL_MS,
      activities: {
        intervalMs: e.ACTIVITIES_SWEEP_INTERVAL_MS,
        rate: e.ACTIVITIES_SWEEP_RATE,
        days: e.ACTIVITIES_SWEEP_DAYS,
        masterAccountId: e.BROKER_MASTER_ACCOUNT_ID,
      },
      mail: mail?.deps,
    },
  });
  setProcessBoss(handle.boss);
  return {
    ...handle,
    stop: async () => {
      await handle.stop();
      await mail?.close();
    },
  };
}
