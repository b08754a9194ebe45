import "server-only";
import { NotFoundError } from "@/lib/errors";
import type { OrderDetail, OrderExecutionRow, OrderFull, OrderTimelineEntry } from "@/lib/schemas/order-detail";
import type { BrokerClient } from "@/server/broker/client";
import type { Engine, Queryable } from "@/server/db/engine";
import { applyOrderSnapshot } from "@/server/events/sync";
import { toOrderRow } from "./blotter";

/** One order from the read model: every field, its combo group, its timeline (with the stored events) and executions. */
const FULL = `o.id::text AS id, o.account_id, o.client_order_id, o.order_id, o.combo_type, o.client_combo_order_id, o.symbol, o.market,
  o.instrument_type, o.side, o.order_type, o.time_in_force, o.quantity::text AS quantity, o.total_cash_amount::text AS total_cash_amount,
  o.filled_quantity::text AS filled_quantity, o.avg_filled_price::text AS avg_filled_price, o.limit_price::text AS limit_price,
  o.stop_price::text AS stop_price, o.status, o.placed_at, o.listed_at, o.updated_at, o.last_event_seq::text AS seq, o.submitted_by,
  o.category, o.instrument_id, o.expire_date, o.entrust_type, o.trading_session, o.option_strategy, o.legs, o.reason,
  o.commission::text AS commission, o.receivable_commission::text AS receivable_commission, o.fees, o.filled_at, o.detail_at, o.detail_wanted`;

type Row = Parameters<typeof toOrderRow>[0] & {
  category: string | null;
  instrument_id: string | null;
  expire_date: string | null;
  entrust_type: string | null;
  trading_session: string | null;
  option_strategy: string | null;
  legs: unknown;
  reason: string | null;
  commission: string | null;
  receivable_commission: string | null;
  fees: unknown;
  filled_at: Date | null;
  detail_at: Date | null;
  detail_wanted: boolean;
};

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
  const { rows } = await q.query<Row>(`SELECT ${FULL} FROM brokerdesk.orders o WHERE o.id = $1`, [id]);
  if (!rows[0]) throw new NotFoundError("order");
  return toFull(rows[0]);
}

export async function getOrderDetail(q: Queryable, id: string): Promise<OrderDetail> {
  const order = await findOrder(q, id);
  const [group, timeline, executions] = await Promise.all([
    order.clientComboOrderId
      ? q.query<Row>(`SELECT ${FULL} FROM brokerdesk.orders o WHERE o.account_id = $1 AND o.client_combo_order_id = $2 ORDER BY o.id`, [
          order.accountId,
          order.clientComboOrderId,
        ])
      : { rows: [] },
    q.query<{
      seq: string;
      scene: string;
      status: string | null;
      filled_quantity: string | null;
      reason: string | null;
      at: Date;
      source: string | null;
      event_type: string | null;
      payload: unknown;
    }>(
      `SELECT e.event_seq::text AS seq, e.scene, e.status, e.filled_quantity::text AS filled_quantity, e.reason, e.at, u.source, u.event_type, u.payload
         FROM brokerdesk.order_events e LEFT JOIN brokerdesk.upstream_events u ON u.seq = e.event_seq
        WHERE e.account_id = $1 AND e.client_order_id = $2 ORDER BY e.event_seq`,
      [order.accountId, order.clientOrderId],
    ),
    q.query<{
      execution_key: string;
      quantity: string;
      price: string;
      commission: string | null;
      receivable_commission: string | null;
      fees: unknown;
      filled_at: Date;
    }>(
      `SELECT execution_key, quantity::text, price::text, commission::text, receivable_commission::text, fees, filled_at
         FROM brokerdesk.executions WHERE account_id = $1 AND client_order_id = $2 ORDER BY filled_at, id`,
      [order.accountId, order.clientOrderId],
    ),
  ]);
  return {
    order,
    group: group.rows.map(toOrderRow),
    timeline: timeline.rows.map((t): OrderTimelineEntry => ({
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
    executions: executions.rows.map((e): OrderExecutionRow => ({
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
    const seq = await engine.query<{ s: string }>(
      "SELECT last_event_seq::text AS s FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2",
      [order.accountId, o.client_order_id],
    );
    await applyOrderSnapshot(
      engine,
      order.accountId,
      o as unknown as Record<string, unknown>,
      seq.rows[0] ? Number(seq.rows[0].s) : undefined,
      group.client_combo_order_id,
    );
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
