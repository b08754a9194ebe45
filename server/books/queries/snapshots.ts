import "server-only";
import type { Queryable } from "@/server/db/engine";

/** What a detail snapshot compares against and marks: the read model's order and movement rows. */

export type OrderSnapshotRow = Record<string, unknown> & { last_event_seq: string; detail_at: Date | null };

export async function selectOrderForSnapshot(
  q: Queryable,
  accountId: string,
  clientOrderId: string,
): Promise<OrderSnapshotRow | undefined> {
  const { rows } = await q.query<OrderSnapshotRow>(
    `SELECT status, filled_quantity::text, order_id, quantity::text, limit_price::text, stop_price::text, order_type, time_in_force, avg_filled_price::text,
            combo_type, last_event_seq::text, detail_at FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2`,
    [accountId, clientOrderId],
  );
  return rows[0];
}

/** The detail matched: no detail call wanted, as long as no event moved the row on. */
export async function markOrderDetailSeen(q: Queryable, accountId: string, clientOrderId: string, seq: number): Promise<void> {
  await q.query(
    "UPDATE brokerdesk.orders SET detail_wanted = false, detail_at = now() WHERE account_id = $1 AND client_order_id = $2 AND last_event_seq = $3",
    [accountId, clientOrderId, seq],
  );
}

/** The order row's last applied event seq (undefined: no row). */
export async function orderSeq(q: Queryable, accountId: string, clientOrderId: string): Promise<number | undefined> {
  const { rows } = await q.query<{ s: string }>(
    "SELECT last_event_seq::text AS s FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2",
    [accountId, clientOrderId],
  );
  return rows[0] ? Number(rows[0].s) : undefined;
}

/** The movement row's fields a detail may complete (null: not known yet); undefined when there is no row. */
export async function selectMovementForSnapshot(
  q: Queryable,
  kind: string,
  clientRequestId: string,
): Promise<Record<"request_id" | "to_amount" | "to_currency" | "fx_rate", string | null> | undefined> {
  const { rows } = await q.query<Record<"request_id" | "to_amount" | "to_currency" | "fx_rate", string | null>>(
    `SELECT request_id, to_amount::text, to_currency, fx_rate::text FROM brokerdesk.money_movements WHERE kind = $1 AND client_request_id = $2`,
    [kind, clientRequestId],
  );
  return rows[0];
}

export async function markMovementDetailSeen(q: Queryable, kind: string, clientRequestId: string): Promise<void> {
  await q.query("UPDATE brokerdesk.money_movements SET detail_at = now() WHERE kind = $1 AND client_request_id = $2", [
    kind,
    clientRequestId,
  ]);
}

/** The movement row's last applied event seq, as text (undefined: no row). */
export async function movementSeq(q: Queryable, kind: string, clientRequestId: string): Promise<string | undefined> {
  const { rows } = await q.query<{ s: string }>(
    "SELECT last_event_seq::text AS s FROM brokerdesk.money_movements WHERE kind = $1 AND client_request_id = $2",
    [kind, clientRequestId],
  );
  return rows[0]?.s;
}
