import "server-only";
import { randomUUID } from "node:crypto";
import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import type { BrokerClient } from "@/server/broker/client";
import type { Engine, Queryable } from "@/server/db/engine";
import { DESK_ONLY_MOVEMENT_STATUSES, FINAL_MOVEMENT_STATUSES, MOVEMENT_KINDS, type MovementKind } from "./changes";
import { notifyChange } from "./channel";
import { fromEnvelope, ingest } from "./ingest";

/**
 * Keeping the read model true with the upstream's detail and list calls, all within the client's rate budget:
 * - details: an order that events describe only in part (no prices; a replace) gets one detail call;
 * - backfill: per account, open orders and recent order history, for what happened before the consumer ran;
 * - reconciliation: a detail call for every movement or open order that has sat in a non-final state too long.
 * What a call returns is stored as a snapshot event only when it changes the read model (a divergence), and only
 * when no event touched the row meanwhile; the read model stays a function of the stored events.
 */
export type SnapshotResult = "same" | "enriched" | "diverged" | "stale";

type Json = Record<string, unknown>;

const canon = (v: unknown): string | undefined => {
  if (v === undefined || v === null || v === "") return undefined;
  const s = String(v);
  return /^-?\d+\.\d+$/.test(s) ? s.replace(/\.?0+$/, "") : s;
};

/** The fields whose difference means the desk's books were wrong, and those that only complete them. */
const ORDER_DIVERGENCE = ["status", "filled_quantity"] as const;
const ORDER_DETAIL = [
  "order_id",
  "quantity",
  "limit_price",
  "stop_price",
  "order_type",
  "time_in_force",
  "avg_filled_price",
  "combo_type",
] as const;
const ORDER_DETAIL_FROM: Record<string, string> = { quantity: "total_quantity", avg_filled_price: "filled_price" };

/**
 * Applies one order detail (as the client parses it) to the read model. `expectSeq` is the row's last_event_seq
 * when the call was made (undefined: the row did not exist).
 */
export async function applyOrderSnapshot(
  engine: Engine,
  accountId: string,
  detail: Json,
  expectSeq: number | undefined,
  group?: string,
): Promise<SnapshotResult> {
  const coid = String(detail.client_order_id);
  const { rows } = await engine.query<Json & { last_event_seq: string; detail_at: Date | null }>(
    `SELECT status, filled_quantity::text, order_id, quantity::text, limit_price::text, stop_price::text, order_type, time_in_force, avg_filled_price::text,
            combo_type, last_event_seq::text, detail_at FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2`,
    [accountId, coid],
  );
  const row = rows[0];
  const seqNow = row ? Number(row.last_event_seq) : undefined;
  if (seqNow !== expectSeq) return "stale";
  const differs = (fields: readonly string[]) =>
    fields.some((f) => {
      const fresh = canon(detail[ORDER_DETAIL_FROM[f] ?? f]);
      return fresh !== undefined && fresh !== canon(row?.[f]);
    });
  const diverged = !!row && differs(ORDER_DIVERGENCE);
  if (row && !diverged && row.detail_at && !differs(ORDER_DETAIL)) {
    await engine.query(
      "UPDATE brokerdesk.orders SET detail_wanted = false, detail_at = now() WHERE account_id = $1 AND client_order_id = $2 AND last_event_seq = $3",
      [accountId, coid, seqNow],
    );
    return "same";
  }
  const item = fromEnvelope(
    {
      id: randomUUID(),
      event_type: "ORDER_SNAPSHOT",
      account_id: accountId,
      payload: { ...detail, account_id: accountId, client_combo_order_id: group },
    },
    "snapshot",
  );
  const guard = async (tx: Queryable) => {
    const r = await tx.query<{ s: string }>(
      "SELECT last_event_seq::text AS s FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2",
      [accountId, coid],
    );
    return (r.rows[0] ? Number(r.rows[0].s) : undefined) === expectSeq;
  };
  const result = await ingest(engine, [item], undefined, guard);
  if (!result.stored) return "stale";
  return diverged || !row ? "diverged" : "enriched";
}

export const DETAIL_CALL: Record<MovementKind, keyof BrokerClient> = {
  CASH_JOURNAL: "getCashJournal",
  POSITION_JOURNAL: "getPositionJournal",
  INSTANT_FUNDING: "getInstantFunding",
  FX_EXCHANGE: "getFxRequest",
  INSTANT_EXCHANGE: "getInstantExchange",
};

export async function applyMovementSnapshot(
  engine: Engine,
  m: { kind: MovementKind; client_request_id: string; account_id: string; status: string; last_event_seq: string },
  detail: Json,
): Promise<SnapshotResult> {
  if (canon(detail.status) === canon(m.status)) {
    await engine.query("UPDATE brokerdesk.money_movements SET detail_at = now() WHERE kind = $1 AND client_request_id = $2", [
      m.kind,
      m.client_request_id,
    ]);
    return "same";
  }
  const item = fromEnvelope(
    {
      id: randomUUID(),
      event_type: "MOVEMENT_SNAPSHOT",
      account_id: m.account_id,
      payload: { ...detail, movement_kind: m.kind, account_id: m.account_id },
    },
    "snapshot",
  );
  const result = await ingest(engine, [item], undefined, async (tx) => {
    const r = await tx.query<{ s: string }>(
      "SELECT last_event_seq::text AS s FROM brokerdesk.money_movements WHERE kind = $1 AND client_request_id = $2",
      [m.kind, m.client_request_id],
    );
    return r.rows[0]?.s === m.last_event_seq;
  });
  return result.stored ? "diverged" : "stale";
}

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
  let result: SnapshotResult = "same";
  for (const o of group.orders) {
    const mine = o.client_order_id === coid;
    const seq = mine ? expectSeq : await seqOf(d.engine, accountId, o.client_order_id);
    const r = await applyOrderSnapshot(d.engine, accountId, o as unknown as Json, seq, group.client_combo_order_id);
    if (mine) result = r;
  }
  return result;
}

async function seqOf(engine: Queryable, accountId: string, coid: string): Promise<number | undefined> {
  const { rows } = await engine.query<{ s: string }>(
    "SELECT last_event_seq::text AS s FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2",
    [accountId, coid],
  );
  return rows[0] ? Number(rows[0].s) : undefined;
}

/** One pass of detail calls for orders that want one; returns how many were read. */
export async function completeOrderDetails(d: SyncDeps, limit = 20): Promise<number> {
  const { rows } = await d.engine.query<{ account_id: string; client_order_id: string; s: string }>(
    `SELECT account_id, client_order_id, last_event_seq::text AS s FROM brokerdesk.orders WHERE detail_wanted OR detail_at IS NULL ORDER BY id LIMIT $1`,
    [limit],
  );
  for (const r of rows) {
    try {
      await refreshOrder(d, r.account_id, r.client_order_id, Number(r.s));
    } catch (e) {
      if (!isNotFound(e)) throw e;
      // Refused at placement (never became an order) or gone: nothing more to learn.
      await d.engine.query(
        "UPDATE brokerdesk.orders SET detail_wanted = false, detail_at = now() WHERE account_id = $1 AND client_order_id = $2",
        [r.account_id, r.client_order_id],
      );
    }
  }
  return rows.length;
}

interface Run {
  id: string;
  cursor: string | null;
  done: number;
  checked: number;
  fixed: number;
  errors: number;
}

async function openRun(engine: Engine, job: "backfill" | "reconcile", requestedBy?: string, resume = false): Promise<Run> {
  if (resume) {
    const { rows } = await engine.query<Run>(
      "SELECT id::text, cursor, done, checked, fixed, errors FROM brokerdesk.sync_runs WHERE job = $1 AND status = 'running' ORDER BY sync_runs.id DESC LIMIT 1",
      [job],
    );
    if (rows[0]) return rows[0];
  }
  const { rows } = await engine.query<Run>(
    "INSERT INTO brokerdesk.sync_runs (job, status, requested_by) VALUES ($1, 'running', $2) RETURNING id::text, cursor, done, checked, fixed, errors",
    [job, requestedBy ?? null],
  );
  return rows[0];
}

async function saveRun(
  engine: Engine,
  run: Run,
  patch: { status?: "done" | "failed"; total?: number; last_error?: string } = {},
): Promise<void> {
  await engine.query(
    `UPDATE brokerdesk.sync_runs SET cursor = $2, done = $3, checked = $4, fixed = $5, errors = $6, total = COALESCE($7, total),
            status = COALESCE($8, status), finished_at = CASE WHEN $8::text IS NULL THEN finished_at ELSE now() END, last_error = COALESCE($9, last_error)
      WHERE id = $1`,
    [run.id, run.cursor, run.done, run.checked, run.fixed, run.errors, patch.total ?? null, patch.status ?? null, patch.last_error ?? null],
  );
  await notifyChange(engine, { topics: ["stream"], accounts: [] });
}

const tally = (run: Run, r: SnapshotResult) => {
  run.checked += 1;
  if (r === "diverged") run.fixed += 1;
};

/** Backfill, resumable: continues the last unfinished run from its account cursor. */
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
                    await seqOf(d.engine, account.account_id, ord.client_order_id),
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
    await saveRun(d.engine, run, { last_error: String((e as Error).message ?? e) });
    throw e;
  }
  return run;
}

/** Detail calls for every movement and open order that has been non-final for longer than `afterMs`. */
export async function reconcile(d: SyncDeps, o: { afterMs: number; requestedBy?: string; signal?: AbortSignal }): Promise<Run> {
  const run = await openRun(d.engine, "reconcile", o.requestedBy);
  const before = new Date(Date.now() - o.afterMs);
  try {
    const { rows: movements } = await d.engine.query<{
      kind: MovementKind;
      client_request_id: string;
      account_id: string;
      status: string;
      last_event_seq: string;
    }>(
      `SELECT kind, client_request_id, account_id, status, last_event_seq::text FROM brokerdesk.money_movements
        WHERE status <> ALL($1) AND updated_at < $2 AND kind = ANY($3) AND account_id IS NOT NULL ORDER BY updated_at LIMIT 5000`,
      [[...FINAL_MOVEMENT_STATUSES, ...DESK_ONLY_MOVEMENT_STATUSES], before, MOVEMENT_KINDS],
    );
    const { rows: orders } = await d.engine.query<{ account_id: string; client_order_id: string; s: string }>(
      `SELECT account_id, client_order_id, last_event_seq::text AS s FROM brokerdesk.orders
        WHERE status = ANY($2) AND updated_at < $1 ORDER BY updated_at LIMIT 5000`,
      [before, OPEN_ORDER_STATUSES],
    );
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
    await saveRun(d.engine, run, { status: "failed", last_error: String((e as Error).message ?? e) });
    throw e;
  }
  return run;
}
