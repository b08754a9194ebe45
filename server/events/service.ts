import "server-only";
import type { BrokerClient } from "@/server/broker/client";
import { sleep } from "./sleep";
import { startConsumer, type ConsumerHandle, type ConsumerOptions } from "./consumer";
import { backfill, completeOrderDetails, reconcile, type SyncDeps } from "./sync";

/**
 * The event service: the consumer plus, while it leads, the background jobs (order details, backfill on the first
 * start and resumed after a restart, periodic reconciliation) and the stream-health page's requests (reconnect,
 * run a reconciliation), which reach it through the `event_stream` row so they work across processes.
 */
export interface EventServiceOptions extends Omit<ConsumerOptions, "onLead"> {
  client: BrokerClient;
  backfillDays?: number;
  reconcileAfterMs?: number;
  reconcileIntervalMs?: number;
  /** Detail calls for orders that events describe in part (off in the projection benchmark). */
  details?: boolean;
}

export function startEventService(o: EventServiceOptions): ConsumerHandle {
  const log = o.log ?? (() => undefined);
  const deps: SyncDeps = { engine: o.engine, client: o.client, log };
  // Set once startConsumer returns; the jobs that use it only run on leadership, after that.
  const consumer: { handle?: ConsumerHandle } = {};

  async function forever(name: string, signal: AbortSignal, step: () => Promise<number>, idleMs: number) {
    while (!signal.aborted) {
      let worked = 0;
      try {
        worked = await step();
      } catch (e) {
        log("warn", `${name} failed; trying again`, { err: String((e as Error).message ?? e) });
        await sleep(5_000, signal);
      }
      if (!worked) await sleep(idleMs, signal);
    }
  }

  const onLead = (signal: AbortSignal) => {
    let lastReconcile = Date.now();
    const days = o.backfillDays ?? 30;
    const afterMs = o.reconcileAfterMs ?? 5 * 60_000;
    const intervalMs = o.reconcileIntervalMs ?? 5 * 60_000;

    if (o.details !== false) void forever("order details", signal, () => completeOrderDetails(deps), 1_000);

    void (async () => {
      // A backfill that never finished (or never ran) goes first; it resumes from its cursor.
      const { rows } = await o.engine.query("SELECT 1 FROM brokerdesk.sync_runs WHERE job = 'backfill' AND status = 'done' LIMIT 1");
      if (!rows.length) {
        await backfill(deps, { days, signal }).catch((e) => log("warn", "backfill stopped; it resumes on the next start", { err: String(e) }));
      }
    })();

    // A request is pending while it is newer than what answers it: a reconnect than the current connection, a
    // reconciliation than the last run's start. So a request made while no consumer led is still carried out.
    void forever("stream requests", signal, async () => {
      const { rows } = await o.engine.query<{ reconnect: boolean; reconcile: boolean; by: string | null }>(
        `SELECT s.reconnect_requested_at > COALESCE(s.connected_at, '-infinity') AND s.connected AS reconnect,
                s.reconcile_requested_at > COALESCE((SELECT max(started_at) FROM brokerdesk.sync_runs WHERE job = 'reconcile'), '-infinity') AS reconcile,
                s.reconcile_requested_by AS by
           FROM brokerdesk.event_stream s WHERE s.id = 'upstream'`);
      const r = rows[0];
      if (r?.reconnect) consumer.handle?.reconnect("reconnect requested");
      if (r?.reconcile || Date.now() - lastReconcile > intervalMs) {
        lastReconcile = Date.now();
        await reconcile(deps, { afterMs: r?.reconcile ? 0 : afterMs, requestedBy: r?.reconcile ? (r.by ?? undefined) : undefined, signal });
      }
      return 0;
    }, 1_000);
  };

  consumer.handle = startConsumer({ ...o, onLead });
  return consumer.handle;
}
