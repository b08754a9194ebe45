import "server-only";
import { env, eventStreamConfig } from "@/lib/env";
import { broker } from "@/server/broker";
import type { Engine } from "@/server/db/engine";
import { logger } from "@/server/log";
import type { ConsumerHandle } from "./consumer";
import { startEventService } from "./service";

/** Starts the event service from the configuration, on an open app database. Undefined when no event service is configured. */
export function startConfiguredEventService(engine: Engine): ConsumerHandle | undefined {
  const e = env();
  const stream = eventStreamConfig(e);
  const log = logger.child({ component: "events" });
  if (!stream) {
    log.warn("no event service configured (BROKER_EVENTS_TARGET): the read model is fed by reconciliation only");
    return undefined;
  }
  return startEventService({
    engine,
    client: broker(),
    stream,
    silenceMs: e.EVENTS_SILENCE_MS,
    backoffMaxMs: e.EVENTS_BACKOFF_MAX_MS,
    backfillDays: e.EVENTS_BACKFILL_DAYS,
    reconcileAfterMs: e.EVENTS_RECONCILE_AFTER_MS,
    reconcileIntervalMs: e.EVENTS_RECONCILE_INTERVAL_MS,
    activities: {
      intervalMs: e.ACTIVITIES_SWEEP_INTERVAL_MS,
      rate: e.ACTIVITIES_SWEEP_RATE,
      days: e.ACTIVITIES_SWEEP_DAYS,
      masterAccountId: e.BROKER_MASTER_ACCOUNT_ID,
    },
    log: (level, msg, extra) => log[level](extra ?? {}, msg),
  });
}
