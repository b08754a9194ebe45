import "server-only";
import type { Queryable } from "@/server/db/engine";
import { lockCash, lockPosition, postCash, postPosition, recordActivity } from "../ledger";
import { Decimal } from "../money";
import type { OutboxEvent } from "./events/outbox";
import type { ContractInfo } from "./order-types";
import { endOrder } from "./lifecycle";
import { lockOrderById } from "./order-store";
import { localTime } from "./sessions";
import type { Trading } from "./state";

/**
 * Option exercise and expiry (physical delivery at the strike, 100 shares a contract):
 * - EXERCISE of a long call buys the shares, of a long put sells them (a MARGIN account may go short; a CASH account
 *   must hold them); DO_NOT_EXERCISE is recorded and stops the automatic exercise at expiry.
 * - At expiry (the first pass after the expiration date, US time): long positions in the money by at least 0.01 are
 *   exercised unless a DO_NOT_EXERCISE instruction exists; short positions in the money are assigned; the rest expire
 *   worthless. Working orders on expired contracts are cancelled. Activities: OPTION_EA / EXERCISE, ASSIGNMENT, EXPIRATION.
 */
export async function deliver(
  tx: Queryable,
  accountId: string,
  c: ContractInfo,
  contracts: Decimal,
  kind: "EXERCISE" | "ASSIGNMENT",
  key: string,
  at: Date,
): Promise<void> {
  const shares = contracts.abs().times(c.multiplier);
  // The holder of a call (or the writer of a put) receives the shares.
  const receives = (c.option_type === "CALL") === (kind === "EXERCISE");
  const cashMove = shares.times(c.strike_price).times(receives ? -1 : 1);
  await lockCash(tx, [[accountId, "USD"]], at);
  await postCash(tx, { accountId, currency: "USD", amount: cashMove, activity: null }, at);
  await postPosition(
    tx,
    {
      accountId,
      instrumentType: "EQUITY",
      market: "US",
      symbol: c.root_symbol,
      currency: "USD",
      quantity: receives ? shares : shares.neg(),
      price: c.strike_price,
      activity: null,
    },
    at,
  );
  await postPosition(
    tx,
    {
      accountId,
      instrumentType: "OPTION",
      market: "US",
      symbol: c.symbol,
      currency: "USD",
      quantity: kind === "EXERCISE" ? contracts.abs().neg() : contracts.abs(),
      price: 0,
      activity: null,
    },
    at,
  );
  await recordActivity(
    tx,
    accountId,
    {
      key,
      type: "OPTION_EA",
      subType: kind,
      currency: "USD",
      netAmount: cashMove,
      quantity: receives ? shares : shares.neg(),
      market: "US",
      symbol: c.symbol,
      description: `${kind} ${contracts.abs().toString()} ${c.symbol}: ${receives ? "receive" : "deliver"} ${shares.toString()} ${c.root_symbol} @ ${c.strike_price}`,
    },
    at,
  );
}

export async function expireOptions(tx: Queryable, t: Trading, at: Date, out: OutboxEvent[]): Promise<void> {
  const today = localTime("US", at).date;
  const { rows } = await tx.query<ContractInfo & { account_id: string; quantity: string }>(
    `SELECT p.account_id, p.quantity, o.symbol, o.root_symbol, o.option_type, o.strike_price::text, o.expiration_date::text AS expiration_date, o.multiplier
       FROM sandbox.positions p JOIN sandbox.option_contracts o ON o.symbol = p.symbol
      WHERE p.instrument_type = 'OPTION' AND o.expiration_date < $1::date ORDER BY p.account_id, p.symbol`,
    [today],
  );
  for (const r of rows) {
    const held = await lockPosition(tx, r.account_id, "OPTION", r.symbol);
    if (!held) continue;
    const q = new Decimal(held.quantity);
    const spot = t.market.get("EQUITY", "US", r.root_symbol)?.last ?? new Decimal(r.strike_price);
    const itm = (r.option_type === "CALL" ? spot.minus(r.strike_price) : new Decimal(r.strike_price).minus(spot)).gte("0.01");
    const key = `expiry:${r.account_id}:${r.symbol}`;
    const { rows: dne } = await tx.query(
      "SELECT 1 FROM sandbox.option_exercises WHERE account_id = $1 AND symbol = $2 AND exercise_type = 'DO_NOT_EXERCISE'",
      [r.account_id, r.symbol],
    );
    if (itm && q.gt(0) && !dne.length) await deliver(tx, r.account_id, r, q, "EXERCISE", key, at);
    else if (itm && q.lt(0)) await deliver(tx, r.account_id, r, q, "ASSIGNMENT", key, at);
    else {
      await postPosition(
        tx,
        {
          accountId: r.account_id,
          instrumentType: "OPTION",
          market: "US",
          symbol: r.symbol,
          currency: "USD",
          quantity: q.neg(),
          price: 0,
          activity: null,
        },
        at,
      );
      await recordActivity(
        tx,
        r.account_id,
        {
          key,
          type: "OPTION_EA",
          subType: "EXPIRATION",
          currency: "USD",
          netAmount: 0,
          quantity: q.neg(),
          market: "US",
          symbol: r.symbol,
          description: `${r.symbol} expired worthless`,
        },
        at,
      );
    }
    out.push({
      event_type: "TRADE",
      account_id: r.account_id,
      payload: {
        biz_type: "OPTION_EXPIRY",
        symbol: r.symbol,
        quantity: q.toString(),
        outcome: itm ? (q.gt(0) ? (dne.length ? "EXPIRED" : "EXERCISED") : "ASSIGNED") : "EXPIRED",
      },
    });
  }
  const { rows: orders } = await tx.query<{ order_id: string }>(
    `SELECT DISTINCT o.order_id FROM sandbox.orders o, jsonb_array_elements(coalesce(o.legs, '[]'::jsonb)) l
      WHERE o.status IN ('PENDING', 'SUBMITTED', 'PARTIAL_FILLED') AND o.instrument_type = 'OPTION' AND (l->'option'->>'expiry')::date < $1::date`,
    [today],
  );
  for (const r of orders) {
    const o = await lockOrderById(tx, r.order_id);
    if (o) await endOrder(tx, o, "CANCELLED", "Option contract expired.", at, out);
  }
}
