import "server-only";
import { NotFoundError } from "@/lib/errors";
import type { OrderDetail, OrderExecutionRow, OrderFull, OrderTimelineEntry } from "@/lib/schemas/order-detail";
import type { BrokerClient } from "@/server/broker/client";
import type { Engine, Queryable } from "@/server/db/engine";
import { applyOrderSnapshot } from "@/server/books/snapshots";
import { toOrderRow } from "./queries/blotter";
import {
  selectOrderById,
  selectOrderExecutions,
  selectOrderGroup,
  selectOrderStaffChanges,
  selectOrderTimeline,
  type OrderFullRow as Row,
} from "./queries/detail";
import { orderSeq } from "@/server/books/queries/snapshots";

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : ((typeof v === "string" ? JSON.parse(v) : v) as T));

function toFull(r: Row): OrderFull {
  return {
    ...toOrderRow(r),
    category: r.category,
    instrumentId: r.instrument_id,
    expireDate: r.expire_date,
    entrustType: r.entrust_type,
    tradingSession: r.trading_session,
    optionStrategy: r.option_strategy,
    legs: json(r.legs),
    reason: r.reason,
    commission: r.commission,
    receivableCommission: r.receivable_commission,
    fees: json(r.fees),
    filledAt: iso(r.filled_at),
    detailAt: iso(r.detail_at),
    detailWanted: r.detail_wanted,
  };
}

export async function findOrder(q: Queryable, id: string): Promise<OrderFull> {
  if (!/^\d{1,18}$/.test(id)) throw new NotFoundError("order");
  const row = await selectOrderById(q, id);
  if (!row) throw new NotFoundError("order");
  return toFull(row);
}

export async function getOrderDetail(q: Queryable, id: string): Promise<OrderDetail> {
  const order = await findOrder(q, id);
  const [group, timeline, executions, changes] = await Promise.all([
    order.clientComboOrderId ? selectOrderGroup(q, order.accountId, order.clientComboOrderId) : [],
    selectOrderTimeline(q, order.accountId, order.clientOrderId),
    selectOrderExecutions(q, order.accountId, order.clientOrderId),
    selectOrderStaffChanges(q, order.accountId, order.clientOrderId),
  ]);
  return {
    order,
    changes: changes.map((c) => ({
      seq: Number(c.seq),
      at: iso(c.at)!,
      action: c.action,
      actor: c.actor_email,
      role: c.actor_role,
      reasonCode: c.reason_code,
      reasonText: c.reason_text,
      outcome: c.outcome,
      errorCode: c.error_code,
    })),
    group: group.map(toOrderRow),
    timeline: timeline.map((t): OrderTimelineEntry => ({
      seq: Number(t.seq),
      scene: t.scene,
      status: t.status,
      filledQuantity: t.filled_quantity,
      reason: t.reason,
      at: iso(t.at)!,
      source: t.source,
      eventType: t.event_type,
      payload: json(t.payload),
    })),
    executions: executions.map((e): OrderExecutionRow => ({
      key: e.execution_key,
      quantity: e.quantity,
      price: e.price,
      commission: e.commission,
      receivableCommission: e.receivable_commission,
      fees: json(e.fees),
      filledAt: iso(e.filled_at)!,
    })),
  };
}

/**
 * "Refresh from upstream": one live detail call for the order's group. The answer is shown as received (the raw
 * JSON, deprecated fields included) and applied to the read model like the consumer's own detail calls (stored as a
 * snapshot event only when it changes something).
 */
export async function refreshOrderFromUpstream(engine: Engine, client: BrokerClient, id: string) {
  const order = await findOrder(engine, id);
  let raw: unknown;
  let requestId: string | undefined;
  const group = await client.getOrder(
    { account_id: order.accountId, client_order_id: order.clientOrderId },
    { onResponse: (info) => ((raw = info.body), (requestId = info.requestId)) },
  );
  for (const o of group.orders) {
    const seq = await orderSeq(engine, order.accountId, o.client_order_id);
    await applyOrderSnapshot(engine, order.accountId, o as unknown as Record<string, unknown>, seq, group.client_combo_order_id);
  }
  const mine = group.orders.find((o) => o.client_order_id === order.clientOrderId) ?? group.orders[0];
  return { fetchedAt: new Date().toISOString(), requestId, order: mine, deprecated: deprecatedTimes(raw, order.clientOrderId), raw };
}

/** The deprecated epoch-ms `place_time` / `fill_time` as the upstream sent them (the parsed order drops them). */
function deprecatedTimes(
  raw: unknown,
  coid: string,
): { place_time?: string; fill_time?: string; place_time_at?: string; filled_time_at?: string } {
  const found: Record<string, unknown>[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if (o.client_order_id === coid && ("status" in o || "place_time" in o)) found.push(o);
      Object.values(o).forEach(walk);
    }
  };
  walk(raw);
  const o = found[0] ?? {};
  const s = (k: string) => (o[k] === undefined || o[k] === null ? undefined : String(o[k]));
  return {
    place_time: s("place_time"),
    fill_time: s("fill_time") ?? s("filled_time"),
    place_time_at: s("place_time_at"),
    filled_time_at: s("filled_time_at"),
  };
}
