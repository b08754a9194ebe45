import "server-only";
import type { Tx } from "@/server/db/engine";
import { idFrom } from "../ids";
import { Decimal } from "../money";
import { emit, type OutboxEvent } from "../trading/events/outbox";
import { executeFill } from "../trading/fills";
import { hold } from "../trading/funds";
import { endOrder } from "../trading/lifecycle";
import { SimMarket } from "../trading/market";
import { insertOrder, UNFILLED } from "../trading/order-write";
import { updateOrder, type OrderRow } from "../trading/order-store";
import { estimateHold } from "../trading/pricing";
import { tradeEvent } from "../trading/trade-events";
import { expirations, occSymbol, strikesFor } from "./catalog";

/**
 * The customers' trading of the last three weeks, as the sandbox would hold it had they traded: orders in every
 * state (filled in one or two executions, partially filled and still working, working, replaced, cancelled,
 * expired, failed) across US, HK and CN stocks and US options, each placed, filled and ended through the order
 * engine's own steps (insertOrder, hold, executeFill, endOrder) with back-dated times, its TRADE events in the outbox.
 * The desk reads them as it reads any upstream's: the first start's backfill (order history and open orders), the
 * open-orders sweep. Every time is counted back from the anchor (the seed day), every id derived from the plan.
 */
const DAY = 86_400_000;

type Plan = {
  /** seed account index (ACTIVE and funded in seed/accounts.ts) */
  i: number;
  market: "US" | "HK" | "CN";
  symbol: string;
  side: "BUY" | "SELL";
  qty: number;
  type: "MARKET" | "LIMIT";
  /** limit price as a fraction of the seed price */
  limit?: number;
  tif?: "DAY" | "GTC";
  /** days before the anchor it was placed */
  ago: number;
  /** what happened: fills as fractions of qty, then how it ended (or "working") */
  fills: number[];
  end: "working" | "cancelled" | "expired" | "failed";
  /** a working order replaced once: its limit moved to this fraction */
  replacedTo?: number;
  option?: boolean;
};

/**
 * The accounts that trade: ACTIVE, funded, with the markets they may trade (HK: even index; CN: multiple of 5;
 * options: 1 modulo 4), and none that the sandbox's tests take as plain accounts to work on.
 */
const PLANS: Plan[] = [
  { i: 30, market: "US", symbol: "AAPL", side: "BUY", qty: 20, type: "MARKET", ago: 21, fills: [1], end: "working" },
  {
    i: 30,
    market: "HK",
    symbol: "02800",
    side: "BUY",
    qty: 1000,
    type: "LIMIT",
    limit: 1.0,
    tif: "DAY",
    ago: 16,
    fills: [0.5, 0.5],
    end: "working",
  },
  {
    i: 30,
    market: "CN",
    symbol: "601398",
    side: "BUY",
    qty: 500,
    type: "LIMIT",
    limit: 0.94,
    tif: "GTC",
    ago: 3,
    fills: [],
    end: "working",
  },
  {
    i: 33,
    market: "US",
    symbol: "MSFT",
    side: "BUY",
    qty: 10,
    type: "LIMIT",
    limit: 0.95,
    tif: "GTC",
    ago: 4,
    fills: [0.4],
    end: "working",
  },
  {
    i: 33,
    market: "US",
    symbol: "SPY",
    side: "BUY",
    qty: 2,
    type: "LIMIT",
    limit: 1.0,
    tif: "DAY",
    ago: 9,
    fills: [1],
    end: "working",
    option: true,
  },
  { i: 18, market: "US", symbol: "NVDA", side: "BUY", qty: 40, type: "MARKET", ago: 18, fills: [0.25, 0.75], end: "working" },
  { i: 18, market: "US", symbol: "KO", side: "BUY", qty: 50, type: "LIMIT", limit: 0.9, tif: "DAY", ago: 12, fills: [], end: "expired" },
  {
    i: 19,
    market: "US",
    symbol: "TSLA",
    side: "BUY",
    qty: 15,
    type: "LIMIT",
    limit: 0.92,
    tif: "GTC",
    ago: 6,
    fills: [],
    end: "cancelled",
  },
  {
    i: 19,
    market: "US",
    symbol: "AMZN",
    side: "BUY",
    qty: 12,
    type: "LIMIT",
    limit: 0.93,
    tif: "GTC",
    ago: 2,
    fills: [],
    end: "working",
    replacedTo: 0.95,
  },
  { i: 24, market: "US", symbol: "JPM", side: "BUY", qty: 25, type: "MARKET", ago: 14, fills: [1], end: "working" },
  {
    i: 24,
    market: "HK",
    symbol: "00700",
    side: "BUY",
    qty: 100,
    type: "LIMIT",
    limit: 0.96,
    tif: "GTC",
    ago: 5,
    fills: [],
    end: "working",
  },
  {
    i: 26,
    market: "US",
    symbol: "GOOGL",
    side: "BUY",
    qty: 30,
    type: "LIMIT",
    limit: 0.94,
    tif: "GTC",
    ago: 3,
    fills: [0.5],
    end: "working",
  },
  {
    i: 26,
    market: "US",
    symbol: "DIS",
    side: "BUY",
    qty: 40,
    type: "LIMIT",
    limit: 0.97,
    tif: "DAY",
    ago: 11,
    fills: [0.5],
    end: "cancelled",
  },
  { i: 27, market: "US", symbol: "META", side: "BUY", qty: 8, type: "MARKET", ago: 20, fills: [1], end: "working" },
  { i: 27, market: "US", symbol: "INTC", side: "SELL", qty: 400, type: "MARKET", ago: 8, fills: [], end: "failed" },
  {
    i: 37,
    market: "US",
    symbol: "AAPL",
    side: "BUY",
    qty: 1,
    type: "LIMIT",
    limit: 0.9,
    tif: "GTC",
    ago: 2,
    fills: [],
    end: "working",
    option: true,
  },
  { i: 37, market: "US", symbol: "QQQ", side: "BUY", qty: 10, type: "MARKET", ago: 13, fills: [1], end: "working" },
  { i: 25, market: "US", symbol: "V", side: "BUY", qty: 20, type: "LIMIT", limit: 1.0, tif: "DAY", ago: 10, fills: [1], end: "working" },
  {
    i: 25,
    market: "CN",
    symbol: "601318",
    side: "BUY",
    qty: 100,
    type: "LIMIT",
    limit: 0.9,
    tif: "GTC",
    ago: 7,
    fills: [],
    end: "cancelled",
  },
  { i: 28, market: "US", symbol: "AMD", side: "BUY", qty: 30, type: "LIMIT", limit: 0.93, tif: "GTC", ago: 1, fills: [], end: "working" },
  { i: 28, market: "HK", symbol: "09988", side: "BUY", qty: 200, type: "MARKET", ago: 15, fills: [1], end: "working" },
  {
    i: 25,
    market: "US",
    symbol: "TSLA",
    side: "BUY",
    qty: 3,
    type: "LIMIT",
    limit: 1.0,
    tif: "DAY",
    ago: 6,
    fills: [1],
    end: "working",
    option: true,
  },
  {
    i: 31,
    market: "US",
    symbol: "NFLX",
    side: "BUY",
    qty: 5,
    type: "LIMIT",
    limit: 0.95,
    tif: "GTC",
    ago: 4,
    fills: [0.4],
    end: "working",
  },
];

/** Quantity held to sell: the accounts' transferred-in shares (seed/accounts.ts), read when a SELL is planned. */
async function position(tx: Tx, accountId: string, symbol: string): Promise<Decimal> {
  const { rows } = await tx.query<{ quantity: string }>(
    "SELECT quantity::text FROM sandbox.positions WHERE account_id = $1 AND instrument_type = 'EQUITY' AND symbol = $2",
    [accountId, symbol],
  );
  return new Decimal(rows[0]?.quantity ?? 0);
}

export async function seedOrders(tx: Tx, anchor: Date, accountId: (i: number) => string, marketSeed: string): Promise<void> {
  const market = new SimMarket(marketSeed);
  await market.load(tx, anchor);
  const t = { market };
  const { rows: accounts } = await tx.query<{ account_id: string; account_number: string; account_type: string; commission_code: string }>(
    "SELECT account_id, account_number, account_type, commission_code FROM sandbox.virtual_accounts",
  );
  const byId = new Map(accounts.map((a) => [a.account_id, a]));
  for (const [n, p] of PLANS.entries()) {
    const account = byId.get(accountId(p.i))!;
    // Placed in the market's morning, filled minutes later; the fills at the seed price and a little around it.
    const placed = new Date(anchor.getTime() - p.ago * DAY + { US: 14.5, HK: 1.75, CN: 1.75 }[p.market] * 3_600_000 + n * 60_000);
    const symbol = p.option
      ? occSymbol(p.symbol, expirations(anchor)[1], "CALL", strikesFor(market.get("EQUITY", "US", p.symbol)!.last)[2])
      : p.symbol;
    const quote = market.get(p.option ? "OPTION" : "EQUITY", p.market, symbol)!;
    const clientOrderId = `seed-ord-${n + 1}`;
    const o: OrderRow = {
      order_id: idFrom(`seed-order:${clientOrderId}`),
      seq: "0",
      account_id: account.account_id,
      client_order_id: clientOrderId,
      group_id: clientOrderId,
      client_combo_order_id: null,
      combo_type: "NORMAL",
      parent_order_id: null,
      oco_key: null,
      status: "SUBMITTED",
      reason: null,
      instrument_type: p.option ? "OPTION" : "EQUITY",
      market: p.market,
      symbol,
      currency: { US: "USD", HK: "HKD", CN: "CNH" }[p.market],
      side: p.side,
      order_type: p.type,
      entrust_type: "QTY",
      time_in_force: p.tif ?? "DAY",
      expire_date: null,
      trading_session: "CORE",
      quantity: String(p.qty),
      total_cash_amount: null,
      limit_price: p.limit ? quote.last.times(p.limit).toDecimalPlaces(2).toFixed() : null,
      stop_price: null,
      trailing_type: null,
      trailing_stop_step: null,
      trailing_limit_price_offset: null,
      trigger_price_type: null,
      ...UNFILLED,
      option_strategy: null,
      legs: null,
      extra: { _instrument_id: quote.instrumentId },
      body_hash: idFrom(`seed-order-body:${clientOrderId}`),
      place_time: placed,
      filled_time: null,
      updated_at: placed,
    };
    if (p.side === "SELL" && p.end !== "failed") o.quantity = Decimal.min(p.qty, await position(tx, o.account_id, symbol)).toFixed();
    const need = await estimateHold(tx, t, o, account.account_type);
    await hold(tx, account, o.currency, need, placed);
    o.held_amount = need.toFixed();
    await insertOrder(tx, o);

    let cur = o;
    for (const [k, share] of p.fills.entries()) {
      const at = new Date(placed.getTime() + (k + 1) * 7 * 60_000);
      const out: OutboxEvent[] = [];
      const price = o.limit_price ? new Decimal(o.limit_price) : quote.last.times(1 - 0.004 * (k + 1)).toDecimalPlaces(2);
      await executeFill(tx, t, cur, new Decimal(p.qty).times(share).toDecimalPlaces(0), price, at, out);
      await emit(tx, out, at);
      cur = await reread(tx, o.order_id);
    }
    const later = new Date(placed.getTime() + 3 * 3_600_000);
    const out: OutboxEvent[] = [];
    if (p.replacedTo && o.limit_price) {
      // The customer raised the limit an hour later: a replace (MODIFY_SUCCESS) that leaves the order working.
      const at = new Date(placed.getTime() + 3_600_000);
      const next = { ...cur, limit_price: quote.last.times(p.replacedTo).toDecimalPlaces(2).toFixed() };
      const need = await estimateHold(tx, t, next, account.account_type);
      await hold(tx, account, o.currency, need.minus(cur.held_amount), at);
      next.held_amount = need.toFixed();
      await updateOrder(tx, o.order_id, { limit_price: next.limit_price, held_amount: next.held_amount }, at);
      await emit(tx, [tradeEvent(next, "MODIFY_SUCCESS", at)], at);
    } else if (p.end === "cancelled") await endOrder(tx, cur, "CANCELLED", "Cancelled at the client's request.", later, out);
    else if (p.end === "expired") await endOrder(tx, cur, "CANCELLED", "DAY order expired at the end of its trading day.", later, out);
    else if (p.end === "failed") {
      const reason = `Position in ${symbol} is smaller than the ${p.qty} to sell.`;
      await endOrder(tx, cur, "FAILED", reason, new Date(placed.getTime() + 60_000), out);
    }
    if (out.length) await emit(tx, out, later);
  }
}

async function reread(tx: Tx, orderId: string): Promise<OrderRow> {
  const { rows } = await tx.query<OrderRow>(
    "SELECT o.*, o.expire_date::text AS expire_date, o.seq::text AS seq FROM sandbox.orders o WHERE order_id = $1",
    [orderId],
  );
  return rows[0];
}
