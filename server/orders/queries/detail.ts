import "server-only";
import type { Queryable } from "@/server/db/engine";
import type { toOrderRow } from "./blotter";

/** One order from the read model: every field, its combo group, its timeline (with the stored events) and executions. */
const FULL = `o.id::text AS id, o.account_id, o.client_order_id, o.order_id, o.combo_type, o.client_combo_order_id, o.symbol, o.market,
  o.instrument_type, o.side, o.order_type, o.time_in_force, o.quantity::text AS quantity, o.total_cash_amount::text AS total_cash_amount,
  o.filled_quantity::text AS filled_quantity, o.avg_filled_price::text AS avg_filled_price, o.limit_price::text AS limit_price,
  o.stop_price::text AS stop_price, o.status, o.placed_at, o.listed_at, o.updated_at, o.last_event_seq::text AS seq, o.submitted_by,
  o.category, o.instrument_id, o.expire_date, o.entrust_type, o.trading_session, o.option_strategy, o.legs, o.reason,
  o.commission::text AS commission, o.receivable_commission::text AS receivable_commission, o.fees, o.filled_at, o.detail_at, o.detail_wanted,
  (SELECT d.account_number FROM brokerdesk.account_directory d WHERE d.account_id = o.account_id) AS account_number`;

export type OrderFullRow = Parameters<typeof toOrderRow>[0] & {
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

export async function selectOrderById(q: Queryable, id: string): Promise<OrderFullRow | undefined> {
  const { rows } = await q.query<OrderFullRow>(`SELECT ${FULL} FROM brokerdesk.orders o WHERE o.id = $1`, [id]);
  return rows[0];
}

/** The orders of a combo group, in id order. */
export async function selectOrderGroup(q: Queryable, accountId: string, clientComboOrderId: string): Promise<OrderFullRow[]> {
  const { rows } = await q.query<OrderFullRow>(
    `SELECT ${FULL} FROM brokerdesk.orders o WHERE o.account_id = $1 AND o.client_combo_order_id = $2 ORDER BY o.id`,
    [accountId, clientComboOrderId],
  );
  return rows;
}

export interface OrderEventRow {
  seq: string;
  scene: string;
  status: string | null;
  filled_quantity: string | null;
  reason: string | null;
  at: Date;
  source: string | null;
  event_type: string | null;
  payload: unknown;
}

/** The order's events in seq order, with the stored event each came from. */
export async function selectOrderTimeline(q: Queryable, accountId: string, clientOrderId: string): Promise<OrderEventRow[]> {
  const { rows } = await q.query<OrderEventRow>(
    `SELECT e.event_seq::text AS seq, e.scene, e.status, e.filled_quantity::text AS filled_quantity, e.reason, e.at, u.source, u.event_type, u.payload
       FROM brokerdesk.order_events e LEFT JOIN brokerdesk.upstream_events u ON u.seq = e.event_seq
      WHERE e.account_id = $1 AND e.client_order_id = $2 ORDER BY e.event_seq`,
    [accountId, clientOrderId],
  );
  return rows;
}

export interface ExecutionRow {
  execution_key: string;
  quantity: string;
  price: string;
  commission: string | null;
  receivable_commission: string | null;
  fees: unknown;
  filled_at: Date;
}

export async function selectOrderExecutions(q: Queryable, accountId: string, clientOrderId: string): Promise<ExecutionRow[]> {
  const { rows } = await q.query<ExecutionRow>(
    `SELECT execution_key, quantity::text, price::text, commission::text, receivable_commission::text, fees, filled_at
       FROM brokerdesk.executions WHERE account_id = $1 AND client_order_id = $2 ORDER BY filled_at, id`,
    [accountId, clientOrderId],
  );
  return rows;
}

/** The seq of the order's last event (0: none). */
export async function selectLastOrderEventSeq(q: Queryable, accountId: string, clientOrderId: string): Promise<number> {
  const { rows } = await q.query<{ s: string | null }>(
    "SELECT max(event_seq)::text AS s FROM brokerdesk.order_events WHERE account_id = $1 AND client_order_id = $2",
    [accountId, clientOrderId],
  );
  return Number(rows[0]?.s ?? 0);
}

export interface StaffChangeRow {
  seq: string;
  at: Date | string;
  action: "orders.replace" | "orders.cancel";
  actor_email: string | null;
  actor_role: string | null;
  reason_code: string | null;
  reason_text: string | null;
  outcome: "success" | "failure" | "denied";
  error_code: string | null;
}

/** The desk's replaces and cancels of an order from the audit trail (its target), newest first. */
export async function selectOrderStaffChanges(q: Queryable, accountId: string, clientOrderId: string): Promise<StaffChangeRow[]> {
  const { rows } = await q.query<StaffChangeRow>(
    `SELECT seq::text, at, action, actor_email, actor_role, input->>'reasonCode' AS reason_code, input->>'reasonText' AS reason_text,
            outcome, error_code
       FROM brokerdesk.audit_entries
      WHERE target = $1 AND action IN ('orders.replace', 'orders.cancel')
      ORDER BY at DESC, audit_entries.seq DESC
      LIMIT 50`,
    [`order:${accountId}:${clientOrderId}`],
  );
  return rows;
}
