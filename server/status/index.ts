import "server-only";
import { env } from "@/lib/env";
import type { CallObserver } from "@/server/broker/transport";
import { getDb } from "@/server/db";
import { operationModule } from "@/server/wire/modules";
import { bucketMsFor, StatusRecorder } from "./recorder";

/**
 * The process's evidence recorder (one a process, even when the bundler loads this module in several chunks),
 * flushed to the shared buckets every bucket's length, and the observer the process's upstream client reports to.
 */
const holder = globalThis as unknown as { __brokerdeskStatusRecorder?: StatusRecorder };

export function processRecorder(): StatusRecorder {
  if (!holder.__brokerdeskStatusRecorder) {
    const r = new StatusRecorder(bucketMsFor(env().STATUS_WINDOW_MS));
    r.start(async () => (await getDb()).engine);
    holder.__brokerdeskStatusRecorder = r;
  }
  return holder.__brokerdeskStatusRecorder;
}

/** An observer that records each attempt's evidence under its operation's module into `recorder`. */
export function recordingObserver(recorder: () => StatusRecorder): CallObserver {
  return ({ operation, outcome, durationMs, probe }) => {
    const mod = operationModule(operation);
    if (mod) recorder().record(mod, outcome, durationMs, probe ? "probe" : "call");
  };
}
