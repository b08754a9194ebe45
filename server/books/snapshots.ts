import "server-only";
import { randomUUID } from "node:crypto";
import type { BrokerClient } from "@/server/broker/client";
import type { Engine, Queryable } from "@/server/db/engine";
import type { MovementKind } from "./changes";
import { fromEnvelope, ingest } from "./ingest";
import {
  markMovementDetailSeen,
  markOrderDetailSeen,
  movementSeq,
  orderSeq,
  selectMovementForSnapshot,
  selectOrderForSnapshot,
} from "./queries/snapshots";

/**
 * An upstream detail call's answer applied to the read model: stored as a snapshot event only when it changes the
 * read model (a divergence, or detail the events lacked), and only when no event touched the row meanwhile, so the
 * read model stays a function of the stored events. Used by the event path's reconciliation and by the detail pages'
 * refresh.
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
  const row = await selectOrderForSnapshot(engine, accountId, coid);
  const seqNow = row ? Number(row.last_event_seq) : undefined;
  if (seqNow !== expectSeq) return "stale";
  const differs = (fields: readonly string[]) =>
    fields.some((f) => {
      const fresh = canon(detail[ORDER_DETAIL_FROM[f] ?? f]);
      return fresh !== undefined && fresh !== canon(row?.[f]);
    });
  const diverged = !!row && differs(ORDER_DIVERGENCE);
  if (row && !diverged && row.detail_at && !differs(ORDER_DETAIL)) {
    await markOrderDetailSeen(engine, accountId, coid, seqNow!);
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
  const guard = async (tx: Queryable) => (await orderSeq(tx, accountId, coid)) === expectSeq;
  const result = await ingest(engine, [item], undefined, guard);
  if (!result.stored) return "stale";
  return diverged || !row ? "diverged" : "enriched";
}

/**
 * Applies every member of an order group (a detail or listing answer) as `applyOrderSnapshot`, each against its
 * last_event_seq read now, or for `expected.coid` the one read before the call was made. Answers each member's result.
 */
export async function applyOrderGroup(
  engine: Engine,
  accountId: string,
  group: { client_combo_order_id?: string; orders: { client_order_id: string }[] },
  expected?: { coid: string; seq: number | undefined },
): Promise<Map<string, SnapshotResult>> {
  const results = new Map<string, SnapshotResult>();
  for (const o of group.orders) {
    const seq = o.client_order_id === expected?.coid ? expected.seq : await orderSeq(engine, accountId, o.client_order_id);
    results.set(o.client_order_id, await applyOrderSnapshot(engine, accountId, o as unknown as Json, seq, group.client_combo_order_id));
  }
  return results;
}

export const DETAIL_CALL: Record<MovementKind, keyof BrokerClient> = {
  CASH_JOURNAL: "getCashJournal",
  POSITION_JOURNAL: "getPositionJournal",
  INSTANT_FUNDING: "getInstantFunding",
  FX_EXCHANGE: "getFxRequest",
  INSTANT_EXCHANGE: "getInstantExchange",
};

/**
 * What a movement's detail may add that its events do not carry: the upstream's id, and an FX request's bought
 * amount and rate (a funding event carries the request's fields; the detail adds `to_amount` and `fx_rate`).
 */
const MOVEMENT_DETAIL = ["request_id", "to_amount", "to_currency", "fx_rate"] as const;

/**
 * Applies one movement detail: a snapshot event when its status differs ("diverged") or when it fills a field the
 * row lacks ("enriched"), else the detail is only marked as read.
 */
export async function applyMovementSnapshot(
  engine: Engine,
  m: { kind: MovementKind; client_request_id: string; account_id: string; status: string; last_event_seq: string },
  detail: Json,
): Promise<SnapshotResult> {
  const item = fromEnvelope(
    {
      id: randomUUID(),
      event_type: "MOVEMENT_SNAPSHOT",
      account_id: m.account_id,
      payload: { ...detail, movement_kind: m.kind, account_id: m.account_id },
    },
    "snapshot",
  );
  const diverged = canon(detail.status) !== canon(m.status);
  if (!diverged) {
    const row = await selectMovementForSnapshot(engine, m.kind, m.client_request_id);
    const fresh = item.changes.find((c) => c.kind === "movement")?.fields ?? {};
    if (!MOVEMENT_DETAIL.some((f) => fresh[f] !== undefined && row && row[f] === null)) {
      await markMovementDetailSeen(engine, m.kind, m.client_request_id);
      return "same";
    }
  }
  // The detail is marked read in the transaction that stores it: no reader sees the fields it fills without the time.
  const result = await ingest(engine, [item], undefined, async (tx) => {
    if ((await movementSeq(tx, m.kind, m.client_request_id)) !== m.last_event_seq) return false;
    await markMovementDetailSeen(tx, m.kind, m.client_request_id);
    return true;
  });
  return !result.stored ? "stale" : diverged ? "diverged" : "enriched";
}
