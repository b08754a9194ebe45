import "server-only";
import type { BrokerClient } from "@/server/broker/client";
import { isBrokerError } from "@/server/broker/errors";
import { TokenBucket } from "@/server/broker/rate-budget";
import type { Engine } from "@/server/db/engine";

/**
 * What a sweep of the activities copy runs with (its dependencies and settings) and its pace: listing calls spaced
 * evenly within a share of the upstream's "account" rate group. Change notices of the copy: topic "activities".
 */
export const ACTIVITIES_TOPIC = "activities";

const DEFAULT_RATE = 5;

export interface SweepDeps {
  engine: Engine;
  client: BrokerClient;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
  /** Listing calls per second at most (ACTIVITIES_SWEEP_RATE; default 5, half the "account" group's 10/s). */
  rate?: number;
  /** How far back an account's first pass reaches, in days (ACTIVITIES_SWEEP_DAYS; default 400). */
  days?: number;
  /** A window ends this long before now (default 5 s). */
  settleMs?: number;
  /** Page size of the activity listing (1–200; default 200). */
  pageSize?: number;
  /** The master account when no virtual account names it (BROKER_MASTER_ACCOUNT_ID). */
  masterAccountId?: string;
  /** false: virtual accounts only. */
  master?: boolean;
  /** The clock (tests). */
  now?: () => number;
}

export interface SweepAccount {
  account_id: string;
  account_number?: string;
}

/** Waits for the next listing call's turn; returns early (not throwing) when `signal` aborts. */
type Pacer = (signal?: AbortSignal) => Promise<void>;
// One bucket per deps object: every sweep made with the same deps shares the rate. A bucket of one token refilled
// every 1/rate s: calls evenly spaced, never a burst.
const pacers = new WeakMap<SweepDeps, Pacer>();
export function paceOf(d: SweepDeps): Pacer {
  let p = pacers.get(d);
  if (!p) {
    const bucket = new TokenBucket({ limit: 1, windowMs: 1000 / (d.rate ?? DEFAULT_RATE) });
    p = (signal) =>
      bucket.acquire(signal).catch((e) => {
        if (!signal?.aborted) throw e;
      });
    pacers.set(d, p);
  }
  return p;
}

/** Refused for what was asked (not a transient failure): a 4xx other than 401 and 429. */
export const isRefusal = (e: unknown) => isBrokerError(e) && e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 401;
export const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
