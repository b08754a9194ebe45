import "server-only";
import type { Queryable } from "@/server/db/engine";
import { ApiError } from "../errors";
import { Decimal } from "../money";
import type { OutboxEvent } from "./events/outbox";
import { adjustHeld, hold } from "./funds";
import { lockOrderById, OPEN, updateOrder, type OrderRow } from "./order-store";
import { estimateHold } from "./pricing";
import type { MarketView } from "./state";
import { tradeEvent } from "./trade-events";

/**
 * Order state changes other than fills: cancel, fail, and the combo links. A MASTER's fill activates its
 * STOP_PROFIT / STOP_LOSS children (an OCO pair, sized to the filled quantity); an OTO or OTOCO parent activates its
 * child / its OCO pair when fully filled; an executed OCO member cancels its siblings; a cancelled or failed parent
 * takes its pending children with it.
 */
export async function endOrder(
  tx: Queryable,
  o: OrderRow,
  status: "CANCELLED" | "FAILED",
  reason: string | null,
  at: Date,
  out: OutboxEvent[],
): Promise<void> {
  if (!OPEN.includes(o.status)) return;
  if (new Decimal(o.held_amount).gt(0)) await adjustHeld(tx, o.account_id, o.currency, new Decimal(o.held_amount).neg(), at);
  await updateOrder(tx, o.order_id, { status, reason, held_amount: "0" }, at);
  const ended = { ...o, status, reason, held_amount: "0" };
  out.push(tradeEvent(ended, status === "CANCELLED" ? "CANCEL_SUCCESS" : "PLACE_FAILED", at, undefined, reason ?? undefined));
  const { rows } = await tx.query<{ order_id: string }>(
    "SELECT order_id FROM sandbox.orders WHERE parent_order_id = $1 AND status = 'PENDING'",
    [o.order_id],
  );
  for (const r of rows) {
    const child = await lockOrderById(tx, r.order_id);
    if (child) await endOrder(tx, child, "CANCELLED", `Parent order ${o.client_order_id} ended ${status}.`, at, out);
  }
}

/** After an execution of `o`: cancel OCO siblings; on the final fill, activate children. */
export async function afterExecution(
  tx: Queryable,
  t: MarketView,
  o: OrderRow,
  final: boolean,
  at: Date,
  out: OutboxEvent[],
): Promise<string[]> {
  const activated: string[] = [];
  if (o.oco_key) {
    const { rows } = await tx.query<{ order_id: string }>(
      "SELECT order_id FROM sandbox.orders WHERE oco_key = $1 AND order_id <> $2 AND status IN ('PENDING', 'SUBMITTED', 'PARTIAL_FILLED') ORDER BY seq",
      [o.oco_key, o.order_id],
    );
    for (const r of rows) {
      const sib = await lockOrderById(tx, r.order_id);
      if (sib) await endOrder(tx, sib, "CANCELLED", `OCO: ${o.client_order_id} executed.`, at, out);
    }
  }
  if (!final) return activated;
  const { rows } = await tx.query<{ order_id: string }>(
    "SELECT order_id FROM sandbox.orders WHERE parent_order_id = $1 AND status = 'PENDING' ORDER BY seq",
    [o.order_id],
  );
  const { rows: acct } = await tx.query<{ account_id: string; account_type: string; account_number: string }>(
    "SELECT account_id, account_type, account_number FROM sandbox.virtual_accounts WHERE account_id = $1",
    [o.account_id],
  );
  for (const r of rows) {
    const child = await lockOrderById(tx, r.order_id);
    if (!child) continue;
    // Take-profit / stop-loss children protect what the master bought, so they take its filled quantity.
    const quantity = o.combo_type === "MASTER" ? new Decimal(o.filled_quantity) : new Decimal(child.quantity ?? 0);
    const sized = { ...child, quantity: quantity.toFixed() };
    const need = await estimateHold(tx, t, sized, acct[0].account_type);
    try {
      if (need.gt(0)) await hold(tx, acct[0], child.currency, need, at);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      await endOrder(tx, sized, "FAILED", e.message, at, out);
      continue;
    }
    await updateOrder(tx, child.order_id, { status: "SUBMITTED", quantity: quantity.toFixed(), held_amount: need.toFixed() }, at);
    activated.push(child.order_id);
  }
  return activated;
}
