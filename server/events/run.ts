import "server-only";
import { env, eventStreamConfig } from "@/lib/env";
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
    stream,
    silenceMs: e.EVENTS_SILENCE_MS,
    backoffMaxMs: e.EVENTS_BACKOFF_MAX_MS,
    log: (level, msg, extra) => log[level](extra ?? {}, msg),
  });
}
