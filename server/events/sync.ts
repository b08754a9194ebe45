import "server-only";
import { runFailureMessage } from "@/lib/errors";
import { DESK_ONLY_MOVEMENT_STATUSES, FINAL_MOVEMENT_STATUSES, MOVEMENT_KINDS } from "@/server/books/changes";
import { markMovementDetailSeen, orderSeq } from "@/server/books/queries/snapshots";
import { applyMovementSnapshot, applyOrderGroup, applyOrderSnapshot, DETAIL_CALL, type SnapshotResult } from "@/server/books/snapshots";
import type { BrokerClient } from "@/server/broker/client";
import type { Engine } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import {
  insertRun,
  markOrderDetailDone,
  saveRunRow,
  selectBackfillDue,
  selectOpenOrdersBefore,
  selectOrdersWantingDetail,
  selectRunningRun,
  selectFxWantingDetail,
  selectStaleMovements,
  type Run,
} from "./queries/sync";

/**
 * Keeping the read model true with the upstream's detail and list calls, all within the client's rate budget:
 * - details: an order that events describe only in part (no prices; a replace) gets one detail call, and so does a
 *   completed FX request (its events carry no bought amount and no rate);
 * - backfill: per account, open orders and recent order history, for what happened before the consumer ran, and
 *   for a window of events the stream could not resume over (a gap);
 * - reconciliation: a detail call for every movement or open order that has sat in a non-final state too long.
 * What a call returns is applied through the books' snapshots (`server/books/snapshots.ts`).
 */
type Json = Record<string, unknown>;

const isNotFound = (e: unknown) => {
  const code = (e as { errorCode?: string })?.errorCode ?? "";
  return code.endsWith("NOT_FOUND") || (e as { status?: number })?.status === 404;
};

export interface SyncDeps {
  engine: Engine;
  client: BrokerClient;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
}

/** Reads one order's group and applies every member; returns the result for the order asked about. */
async function refreshOrder(d: SyncDeps, accountId: string, coid: string, expectSeq: number | undefined): Promise<SnapshotResult> {
  const group = await d.client.getOrder({ account_id: accountId, client_order_id: coid });
  const results = await applyOrderGroup(d.engine, accountId, group, { coid, seq: expectSeq });
  return results.get(coid) ?? "same";
}

/** One pass of detail calls for orders that want one; returns how many were read. */
export async function completeOrderDetails(d: SyncDeps, limit = 20): Promise<number> {
  const rows = await selectOrdersWantingDetail(d.engine, limit);
  for (const r of rows) {
    try {
      await refreshOrder(d, r.account_id, r.client_order_id, Number(r.s));
    } catch (e) {
      if (!isNotFound(e)) throw e;
      // Refused at placement (never became an order) or gone: nothing more to learn.
      await markOrderDetailDone(d.engine, r.account_id, r.client_order_id);
    }
  }
  return rows.length;
}

/**
 * One pass of detail calls for completed FX requests the books know no bought amount or rate of; answers how many
 * were read. A call that fails otherwise than "not found" is logged and left for the next pass (the row stays wanted).
 */
export async function completeMovementDetails(d: SyncDeps, limit = 20): Promise<number> {
  const rows = await selectFxWantingDetail(d.engine, limit);
  let read = 0;
  for (const m of rows) {
    const call = d.client[DETAIL_CALL[m.kind]] as (i: { account_id: string; client_request_id: string }) => Promise<Json>;
    try {
      await applyMovementSnapshot(d.engine, m, await call({ account_id: m.account_id, client_request_id: m.client_request_id }));
      read += 1;
    } catch (e) {
      if (isNotFound(e)) {
        // Unknown upstream: nothing more to learn.
        await markMovementDetailSeen(d.engine, m.kind, m.client_request_id);
        read += 1;
      } else d.log?.("warn", "a movement's detail call failed", { kind: m.kind, client_request_id: m.client_request_id, err: String(e) });
    }
  }
  return read;
}

async function openRun(engine: Engine, job: "backfill" | "reconcile", requestedBy?: string, resume = false): Promise<Run> {
  const running = resume ? await selectRunningRun(engine, job) : undefined;
  return running ?? insertRun(engine, job, requestedBy ?? null);
}

async function saveRun(
  engine: Engine,
  run: Run,
  patch: { status?: "done" | "failed"; total?: number; last_error?: string } = {},
): Promise<void> {
  await saveRunRow(engine, run, patch);
  await notifyChange(engine, { topics: ["stream"], accounts: [] });
}

const tally = (run: Run, r: SnapshotResult) => {
  run.checked += 1;
  if (r === "diverged") run.fixed += 1;
};

/** Whether a backfill is due: the first one until it is done, or a gap's run left running. */
export const backfillDue = (engine: Engine): Promise<boolean> => selectBackfillDue(engine);

/**
 * Backfill, resumable: continues the last unfinished run from its account cursor. A gap's run (gaps.ts) reads the
 * same `days` of order history as the first: the upstream filters history by its own market dates and clock, which
 * the desk's clock cannot place to the day, and a few more list calls an account leave nothing of the window out.
 */
export async function backfill(d: SyncDeps, o: { days: number; signal?: AbortSignal; requestedBy?: string }): Promise<Run> {
  const run = await openRun(d.engine, "backfill", o.requestedBy, true);
  const start = new Date(Date.now() - o.days * 86_400_000).toISOString().slice(0, 10);
  try {
    for (;;) {
      const page = await d.client.listVirtualAccounts({ page_size: 50, ...(run.cursor ? { cursor: run.cursor } : {}) });
      for (const account of page.items) {
        if (o.signal?.aborted) return run;
        for (const list of [
          (cursor?: string) => d.client.listOpenOrders({ account_id: account.account_id, page_size: 100, ...(cursor ? { cursor } : {}) }),
          (cursor?: string) =>
            d.client.listOrderHistory({ account_id: account.account_id, start_date: start, page_size: 100, ...(cursor ? { cursor } : {}) }),
        ]) {
          let cursor: string | undefined;
          do {
            const orders = await list(cursor);
            for (const g of orders.items) {
              for (const ord of g.orders) {
                tally(
                  run,
                  await applyOrderSnapshot(
                    d.engine,
                    account.account_id,
                    ord as unknown as Json,
                    await orderSeq(d.engine, account.account_id, ord.client_order_id),
                    g.client_combo_order_id,
                  ),
                );
              }
            }
            cursor = orders.nextCursor;
          } while (cursor && !o.signal?.aborted);
        }
        run.done += 1;
      }
      run.cursor = page.nextCursor ?? null;
      await saveRun(d.engine, run);
      if (!page.nextCursor) break;
    }
    await saveRun(d.engine, run, { status: "done", total: run.done });
  } catch (e) {
    run.errors += 1;
    // Left running: the next start resumes it from its cursor.
    await saveRun(d.engine, run, { last_error: runFailureMessage(e) });
    throw e;
  }
  return run;
}

/** Detail calls for every movement and open order that has been non-final for longer than `afterMs`. */
export async function reconcile(d: SyncDeps, o: { afterMs: number; requestedBy?: string; signal?: AbortSignal }): Promise<Run> {
  const run = await openRun(d.engine, "reconcile", o.requestedBy);
  const before = new Date(Date.now() - o.afterMs);
  try {
    const movements = await selectStaleMovements(
      d.engine,
      before,
      [...FINAL_MOVEMENT_STATUSES, ...DESK_ONLY_MOVEMENT_STATUSES],
      MOVEMENT_KINDS,
    );
    const orders = await selectOpenOrdersBefore(d.engine, before);
    await saveRun(d.engine, run, { total: movements.length + orders.length });
    for (const m of movements) {
      if (o.signal?.aborted) break;
      try {
        const call = d.client[DETAIL_CALL[m.kind]] as (i: { account_id: string; client_request_id: string }) => Promise<Json>;
        tally(
          run,
          await applyMovementSnapshot(d.engine, m, await call({ account_id: m.account_id, client_request_id: m.client_request_id })),
        );
      } catch (e) {
        run.errors += 1;
        d.log?.("warn", "reconciling a movement failed", { kind: m.kind, client_request_id: m.client_request_id, err: String(e) });
      }
      run.done += 1;
    }
    for (const r of orders) {
      if (o.signal?.aborted) break;
      try {
        tally(run, await refreshOrder(d, r.account_id, r.client_order_id, Number(r.s)));
      } catch (e) {
        run.errors += 1;
        d.log?.("warn", "reconciling an order failed", { client_order_id: r.client_order_id, err: String(e) });
      }
      run.done += 1;
    }
    await saveRun(d.engine, run, { status: "done" });
  } catch (e) {
    await saveRun(d.engine, run, { status: "failed", last_error: runFailureMessage(e) });
    throw e;
  }
  return run;
}
