import "server-only";
import { env, isDemoMode } from "@/lib/env";
import { broker } from "@/server/broker";
import type { AppDb } from "@/server/db";
import { logger } from "@/server/log";
import { processRecorder } from "@/server/status";
import { startStatusLoop } from "@/server/status/evaluate";
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
      // Half the documented order-query budget (1 a second) against a real upstream; the sandbox does not limit it.
      orders: {
        rate: e.ORDERS_SWEEP_RATE ?? (isDemoMode(e) ? 5 : 0.5),
        hotMs: e.ORDERS_SWEEP_HOT_MS,
        relistMs: e.ORDERS_SWEEP_RELIST_MS,
      },
      mail: mail?.deps,
    },
  });
  setProcessBoss(handle.boss);
  // The upstream modules' states (server/status): every process of the background work runs the loop; a claim in
  // the database keeps one evaluation a period across them.
  const statusLog = logger.child({ component: "status" });
  const status = startStatusLoop({
    engine: db.engine,
    client: broker(),
    recorder: processRecorder(),
    evalMs: e.STATUS_EVAL_MS,
    windowMs: e.STATUS_WINDOW_MS,
    silenceMs: e.EVENTS_SILENCE_MS,
    log: (level, msg, extra) => statusLog[level](extra ?? {}, msg),
  });
  return {
    ...handle,
    stop: async () => {
      status.stop();
      await handle.stop();
      await mail?.close();
    },
  };
}
