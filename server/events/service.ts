import "server-only";
import { sweepActivities, type SweepDeps } from "@/server/activities/sweep";
import type { BrokerClient } from "@/server/broker/client";
import { sleep } from "@/server/timing";
import { startConsumer, type ConsumerHandle, type ConsumerOptions } from "./consumer";
import { backfill, completeOrderDetails, reconcile, type SyncDeps } from "./sync";

/**
 * The event service: the consumer plus, while it leads, the background jobs (order details, backfill on the first
 * start and resumed after a restart, periodic reconciliation, the activities sweep) and the pages' requests
 * (reconnect, run a reconciliation, sweep activities now), which reach it through the `event_stream` row so they
 * work across processes.
 */
export interface EventServiceOptions extends Omit<ConsumerOptions, "onLead"> {
  client: BrokerClient;
  backfillDays?: number;
  reconcileAfterMs?: number;
  reconcileIntervalMs?: number;
  /** Detail calls for orders that events describe in part (off in the projection benchmark). */
  details?: boolean;
  /**
   * The activities sweep (server/activities/sweep.ts): a round every `intervalMs` (default 60 s) measured from the
   * last round's start, at once on a request newer than that start, and at once on leadership when a round was left
   * unfinished (it resumes). false: off.
   */
  activities?: false | (Omit<SweepDeps, "engine" | "client" | "log"> & { intervalMs?: number });
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
        await backfill(deps, { days, signal }).catch((e) =>
          log("warn", "backfill stopped; it resumes on the next start", { err: String(e) }),
        );
      }
    })();

    if (o.activities !== false) {
      const { intervalMs = 60_000, ...a } = o.activities ?? {};
      // One deps object per leadership: its rounds share one pacer.
      const sweepDeps: SweepDeps = { ...a, engine: o.engine, client: o.client, log };
      // A signal of its own (aborted with leadership's): the sweep's calls listen to it without crowding the shared one.
      const sweepAbort = new AbortController();
      signal.addEventListener("abort", () => sweepAbort.abort(signal.reason), { once: true });
      let attemptedAt = 0;
      // A request a stopped round was answering: not taken up again before the interval (no tight loop on an outage).
      let answered: number | undefined;
      void forever(
        "activities sweep",
        signal,
        async () => {
          const { rows } = await o.engine.query<{
            requested_at: Date | null;
            by: string | null;
            last_start: Date | null;
            unfinished: boolean;
          }>(
            `SELECT s.activities_sweep_requested_at AS requested_at, s.activities_sweep_requested_by AS by,
                  (SELECT max(started_at) FROM brokerdesk.sync_runs WHERE job = 'activities') AS last_start,
                  EXISTS (SELECT 1 FROM brokerdesk.sync_runs WHERE job = 'activities' AND status = 'running') AS unfinished
             FROM brokerdesk.event_stream s WHERE s.id = 'upstream'`,
          );
          const r = rows[0];
          if (!r) return 0;
          const lastStart = r.last_start ? new Date(r.last_start).getTime() : 0;
          const requestedAt = r.requested_at ? new Date(r.requested_at).getTime() : 0;
          const requested = requestedAt > lastStart && requestedAt !== answered;
          const due = requested || (r.unfinished && attemptedAt === 0) || Date.now() - Math.max(lastStart, attemptedAt) >= intervalMs;
          if (!due) return 0;
          attemptedAt = Date.now();
          if (requested) answered = requestedAt;
          const round = await sweepActivities(sweepDeps, {
            signal: sweepAbort.signal,
            requestedBy: requested ? (r.by ?? undefined) : undefined,
          });
          // A resumed round that started before the request does not answer it: a new round follows at once.
          if (round.complete && Date.parse(round.startedAt) < requestedAt) answered = undefined;
          return 0;
        },
        1_000,
      );
    }

    // A request is pending while it is newer than what answers it: a reconnect than the current connection, a
    // reconciliation than the last run's start. So a request made while no consumer led is still carried out.
    void forever(
      "stream requests",
      signal,
      async () => {
        const { rows } = await o.engine.query<{ reconnect: boolean; reconcile: boolean; by: string | null }>(
          `SELECT s.reconnect_requested_at > COALESCE(s.connected_at, '-infinity') AND s.connected AS reconnect,
                s.reconcile_requested_at > COALESCE((SELECT max(started_at) FROM brokerdesk.sync_runs WHERE job = 'reconcile'), '-infinity') AS reconcile,
                s.reconcile_requested_by AS by
           FROM brokerdesk.event_stream s WHERE s.id = 'upstream'`,
        );
        const r = rows[0];
        if (r?.reconnect) consumer.handle?.reconnect("reconnect requested");
        if (r?.reconcile || Date.now() - lastReconcile > intervalMs) {
          lastReconcile = Date.now();
          await reconcile(deps, {
            afterMs: r?.reconcile ? 0 : afterMs,
            requestedBy: r?.reconcile ? (r.by ?? undefined) : undefined,
            signal,
          });
        }
        return 0;
      },
      1_000,
    );
  };

  consumer.handle = startConsumer({ ...o, onLead });
  return consumer.handle;
}
