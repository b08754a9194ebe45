import "server-only";
import type { StatusModule } from "@/lib/status";
import type { AttemptOutcome } from "@/server/broker/transport";
import type { Queryable } from "@/server/db/engine";
import { DEFAULT_THRESHOLDS } from "./machine";
import { addSamples, type SampleRow } from "./queries";

/**
 * The evidence of the desk's upstream calls, kept in memory per process (a few counters per module and bucket) and
 * added to the shared `status_samples` every bucket, so every instance's calls count. What counts as a failure:
 * an upstream 5xx, a timeout, a network error or an answer that is not JSON. A 4xx is a business refusal (the
 * module answered) and a 429 is our own pace: neither is a failure. A call the caller aborted is not evidence.
 */
export type CallOutcome = AttemptOutcome;

export function isFailure(o: CallOutcome): boolean | undefined {
  if (o.kind === "aborted") return undefined;
  if (o.kind === "answer") return o.status >= 500;
  return true;
}

export class StatusRecorder {
  private buckets = new Map<string, SampleRow>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(
    readonly bucketMs: number,
    private readonly slowMs = DEFAULT_THRESHOLDS.slowMs,
  ) {}

  record(module: StatusModule, outcome: CallOutcome, latencyMs: number, source: "call" | "probe" = "call", at = Date.now()): void {
    const failed = isFailure(outcome);
    if (failed === undefined) return;
    const bucket = Math.floor(at / this.bucketMs) * this.bucketMs;
    const key = `${module}|${source}|${bucket}`;
    let row = this.buckets.get(key);
    if (!row) this.buckets.set(key, (row = { module, source, bucket: new Date(bucket), calls: 0, failures: 0, slow: 0, latencyMsSum: 0 }));
    row.calls += 1;
    if (failed) row.failures += 1;
    if (latencyMs >= this.slowMs) row.slow += 1;
    row.latencyMsSum += Math.round(latencyMs);
  }

  /** What is waiting to be flushed (tests). */
  pending(): SampleRow[] {
    return [...this.buckets.values()].map((r) => ({ ...r }));
  }

  /** Adds what was recorded to the database; kept for the next flush when the database refuses. */
  flush(db: Queryable): Promise<void> {
    this.flushing = (this.flushing ?? Promise.resolve()).then(async () => {
      const rows = [...this.buckets.values()];
      if (rows.length === 0) return;
      this.buckets = new Map();
      try {
        await addSamples(db, rows);
      } catch (e) {
        for (const r of rows) {
          const key = `${r.module}|${r.source}|${r.bucket.getTime()}`;
          const now = this.buckets.get(key);
          if (now) {
            now.calls += r.calls;
            now.failures += r.failures;
            now.slow += r.slow;
            now.latencyMsSum += r.latencyMsSum;
          } else this.buckets.set(key, r);
        }
        throw e;
      }
    });
    return this.flushing;
  }

  /** Flushes every bucket's length while the process runs (the timer does not keep it alive). */
  start(db: () => Promise<Queryable>): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.buckets.size === 0) return;
      db()
        .then((q) => this.flush(q))
        .catch(() => undefined);
    }, this.bucketMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The bucket length for a window: a sixtieth of it, at least a second. */
export const bucketMsFor = (windowMs: number) => Math.max(1_000, Math.round(windowMs / 60));
