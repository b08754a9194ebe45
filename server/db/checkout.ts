import "server-only";
import type pg from "pg";
import { backoffMs, sleep } from "@/server/timing";

/**
 * A client of the pool, checked out for a statement or a transaction, that survives a lost connection. A checked-out
 * client has no listener of the pool's, and node-postgres emits a backend's death (`pg_terminate_backend`, a server
 * restart, a cut network) on it as an 'error' event: unheard, that ends the process. Here it is heard, the
 * statement under way fails with it, and the client is destroyed on release instead of going back to the pool.
 *
 * What may run again: only what never reached the server. A connection that could not be made (refused, the
 * server starting or full) and a statement refused by a client already known dead are retried with backoff; a
 * statement or COMMIT that was sent when the connection died may have committed, so its error goes to the caller.
 */
export interface Checkout {
  client: pg.PoolClient;
  /** The error the connection died of, if it did while checked out. */
  broken(): Error | undefined;
  /** Back to the pool, or destroyed when the connection died (`error`: what the last statement failed with). */
  release(error?: unknown): void;
}

const RETRIES = 5;
const BACKOFF = { baseMs: 100, maxMs: 2_000, jitter: "equal" } as const;

/** Connection classes of SQLSTATE (08…), shutdown and start-up (57P0x), too many connections (53300). */
const LOST_CODES = /^(08...|57P0[1-4]|53300)$/;
const LOST_ERRNO = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/** Whether `error` says the connection is gone (or was never made), rather than that a statement failed. */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === "string" ? e.code : "";
  if (LOST_CODES.test(code) || LOST_ERRNO.has(code)) return true;
  const message = typeof e?.message === "string" ? e.message : "";
  return /Connection terminated|not queryable|timeout exceeded when trying to connect/.test(message);
}

/** node-postgres's answer to a statement on a client it already knows dead: the statement was never sent. */
export function neverSent(error: unknown): boolean {
  return /is not queryable/.test(String((error as { message?: unknown })?.message ?? ""));
}

/** Runs `attempt` again, with backoff, while it fails with an error that `retryable` accepts. */
export async function retrying<T>(attempt: () => Promise<T>, retryable: (error: unknown) => boolean): Promise<T> {
  for (let n = 1; ; n += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (n > RETRIES || !retryable(error)) throw error;
      await sleep(backoffMs(n, BACKOFF));
    }
  }
}

/** A client from the pool (a refused or failed connection is tried again), with its 'error' event heard. */
export async function checkout(pool: pg.Pool): Promise<Checkout> {
  const client = await retrying(() => pool.connect(), isConnectionError);
  let broken: Error | undefined;
  const onError = (error: Error) => (broken ??= error);
  client.on("error", onError);
  return {
    client,
    broken: () => broken,
    release: (error) => {
      client.removeListener("error", onError);
      // A dead client is destroyed, not pooled; the pool hears whatever it still emits.
      client.release(broken ?? (isConnectionError(error) ? (error as Error) : undefined));
    },
  };
}
