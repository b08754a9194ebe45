import "server-only";
import type { Queryable } from "@/server/db/engine";
import { calendar } from "../calendar";
import { idFrom } from "../ids";
import { lockCash, lockPosition, postCash, postPosition, recordActivity } from "../ledger";
import { Decimal } from "../money";
import type { OutboxEvent } from "./events/outbox";
import { addFees, charges } from "./fees";
import { adjustHeld } from "./funds";
import { afterExecution, endOrder } from "./lifecycle";
import { multiplierOf, updateOrder, type OrderRow } from "./order-store";
import type { MarketView } from "./state";
import { tradeEvent } from "./trade-events";

/**
 * One execution of a locked order: commission and fees, the cash and position movements through the ledger (one
 * TRADE activity per execution), the execution record with its settlement date, the order's new totals and status,
 * the trade event, and the combo consequences. Sell proceeds wait in unsettled_cash until the settlement date.
 */
export function settlementDate(market: string, at: Date): string {
  const today = at.toISOString().slice(0, 10);
  const to = new Date(at.getTime() + 14 * 86_400_000).toISOString().slice(0, 10);
  const days = calendar(market as "US", today, to);
  return days.find((d) => d.is_trading_day)?.settlement_date ?? today;
}

export async function executeFill(
  tx: Queryable,
  t: MarketView,
  o: OrderRow,
  quantity: Decimal,
  unitPrice: Decimal,
  at: Date,
  out: OutboxEvent[],
): Promise<string[]> {
  const { rows: acct } = await tx.query<{ commission_code: string | null }>(
    "SELECT commission_code FROM sandbox.virtual_accounts WHERE account_id = $1",
    [o.account_id],
  );
  const legs = o.legs && o.legs.length > 1 ? o.legs : null;
  const total = o.quantity == null ? quantity.plus(o.filled_quantity) : new Decimal(o.quantity);
  const before = new Decimal(o.filled_quantity);
  const final = before.plus(quantity).gte(total);

  // Securities first: a SELL of stock that is no longer held fails the order instead of creating a short.
  const moves: { type: "EQUITY" | "OPTION"; symbol: string; delta: Decimal; price: Decimal }[] = [];
  if (legs) {
    for (const l of legs) {
      const q = t.market.get(l.instrument_type, "US", l.symbol)!;
      const s = t.market.spread(q);
      moves.push({
        type: l.instrument_type,
        symbol: l.symbol,
        delta: new Decimal(l.ratio).times(quantity).times(l.side === "BUY" ? 1 : -1),
        price: l.side === "BUY" ? s.ask : s.bid,
      });
    }
  } else {
    moves.push({ type: o.instrument_type, symbol: o.symbol, delta: o.side === "BUY" ? quantity : quantity.neg(), price: unitPrice });
  }
  if (o.side === "SELL" && o.instrument_type === "EQUITY") {
    const held = await lockPosition(tx, o.account_id, "EQUITY", o.symbol);
    if (!held || new Decimal(held.quantity).lt(quantity)) {
      await endOrder(tx, o, "FAILED", `Position in ${o.symbol} is smaller than the ${quantity.toString()} to sell.`, at, out);
      return [];
    }
  }

  // Signed value: what the account pays (BUY, debit combos) or receives (negative).
  const value = legs
    ? unitPrice.times(100).times(quantity)
    : quantity
        .times(unitPrice)
        .times(multiplierOf(o))
        .times(o.side === "BUY" ? 1 : -1);
  const contracts = legs
    ? legs.filter((l) => l.option).reduce((s, l) => s.plus(new Decimal(l.ratio).times(quantity)), new Decimal(0))
    : quantity;
  const ch = charges(
    { market: o.market, instrumentType: o.instrument_type, side: value.gte(0) ? "BUY" : "SELL", quantity, value: value.abs(), contracts },
    acct[0]?.commission_code,
  );
  const net = value.neg().minus(ch.commission).minus(ch.feeTotal);

  const held = new Decimal(o.held_amount);
  const release = final ? held : held.times(quantity).div(total.minus(before)).toDecimalPlaces(2);
  await adjustHeld(tx, o.account_id, o.currency, release.neg(), at);
  await lockCash(tx, [[o.account_id, o.currency]], at);
  await postCash(tx, { accountId: o.account_id, currency: o.currency, amount: net, activity: null }, at);
  const settle = settlementDate(o.market, at);
  const unsettled = net.gt(0) ? net : new Decimal(0);
  if (unsettled.gt(0)) {
    await tx.query("UPDATE sandbox.cash_balances SET unsettled_cash = unsettled_cash + $3 WHERE account_id = $1 AND currency = $2", [
      o.account_id,
      o.currency,
      unsettled.toFixed(),
    ]);
  }
  for (const m of moves) {
    await postPosition(
      tx,
      {
        accountId: o.account_id,
        instrumentType: m.type,
        market: o.market,
        symbol: m.symbol,
        currency: o.currency,
        quantity: m.delta,
        price: m.price,
        activity: null,
      },
      at,
    );
  }
  const n =
    Number(
      (await tx.query<{ n: string }>("SELECT count(*)::text AS n FROM sandbox.executions WHERE order_id = $1", [o.order_id])).rows[0].n,
    ) + 1;
  const executionId = idFrom(`execution:${o.order_id}:${n}`);
  await recordActivity(
    tx,
    o.account_id,
    {
      key: `trade:${executionId}`,
      type: "TRADE",
      subType: o.instrument_type === "OPTION" ? "OPTION_TRADE" : "STOCK_TRADE",
      currency: o.currency,
      netAmount: net,
      quantity: moves.length === 1 ? moves[0].delta : null,
      market: o.market,
      symbol: o.symbol,
      description: `${o.side} ${quantity.toString()} ${o.symbol} @ ${unitPrice.toString()}`,
      refType: "ORDER",
      refId: o.order_id,
    },
    at,
  );
  await tx.query(
    `INSERT INTO sandbox.executions (execution_id, order_id, account_id, client_order_id, symbol, market, instrument_type, side, order_type, status,
       quantity, price, commission, receivable_commission, fees, currency, settle_date, unsettled_amount, filled_at)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19)`,
    [
      executionId,
      o.order_id,
      o.account_id,
      o.client_order_id,
      o.symbol,
      o.market,
      o.instrument_type,
      o.side,
      o.order_type,
      final ? "FILLED" : "PARTIAL_FILLED",
      quantity.toFixed(),
      unitPrice.toFixed(),
      ch.commission.toFixed(),
      ch.receivableCommission.toFixed(),
      JSON.stringify(ch.fees),
      o.currency,
      settle,
      unsettled.toFixed(),
      at,
    ],
  );
  const updated: OrderRow = {
    ...o,
    status: final ? "FILLED" : "PARTIAL_FILLED",
    filled_quantity: before.plus(quantity).toFixed(),
    filled_value: new Decimal(o.filled_value).plus(value.abs()).toFixed(),
    commission: new Decimal(o.commission).plus(ch.commission).toFixed(),
    receivable_commission: new Decimal(o.receivable_commission).plus(ch.receivableCommission).toFixed(),
    fees: addFees(o.fees, ch.fees),
    held_amount: held.minus(release).toFixed(),
    filled_time: at,
    quantity: o.quantity == null && final ? total.toFixed() : o.quantity,
  };
  await updateOrder(
    tx,
    o.order_id,
    {
      status: updated.status,
      filled_quantity: updated.filled_quantity,
      filled_value: updated.filled_value,
      commission: updated.commission,
      receivable_commission: updated.receivable_commission,
      fees: updated.fees,
      held_amount: updated.held_amount,
      filled_time: at,
      quantity: updated.quantity,
    },
    at,
  );
  if (o.side === "SHORT") await consumeLocate(tx, o, quantity, at, out);
  out.push(
    tradeEvent(updated, final ? "FINAL_FILLED" : "FILLED", at, {
      quantity,
      price: unitPrice,
      commission: ch.commission,
      receivable: ch.receivableCommission,
      fees: ch.fees,
    }),
  );
  return afterExecution(tx, t, updated, final, at, out);
}

/** A short sale of a hard-to-borrow name uses up its locate; the new availability is an INSTRUMENT event. */
async function consumeLocate(tx: Queryable, o: OrderRow, quantity: Decimal, at: Date, out: OutboxEvent[]): Promise<void> {
  const { rows } = await tx.query<{ instrument_id: string; available_num: string }>(
    `UPDATE sandbox.instruments SET locate = jsonb_set(locate, '{available_num}', to_jsonb(greatest((locate->>'available_num')::numeric - $3, 0)::text))
      WHERE market = $1 AND symbol = $2 AND locate->>'short_type' = 'HTB' RETURNING instrument_id, locate->>'available_num' AS available_num`,
    [o.market, o.symbol, quantity.toFixed()],
  );
  if (!rows[0]) return;
  out.push({
    event_type: "INSTRUMENT",
    account_id: null,
    payload: {
      biz_type: "LOCATE_UPDATE",
      instrument_id: rows[0].instrument_id,
      symbol: o.symbol,
      market: o.market,
      short_type: "HTB",
      available_num: rows[0].available_num,
    },
  });
}
