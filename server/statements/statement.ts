import "server-only";
import { orderCurrency } from "@/lib/schemas/order-list";
import Decimal from "decimal.js";
import type {
  ExecutionDay,
  Statement,
  StatementCashLine,
  StatementCurrency,
  StatementPeriod,
  StatementTrade,
  TradeConfirmation,
} from "@/lib/schemas/statements";
import type { Queryable } from "@/server/db/engine";
import {
  selectAccountState,
  selectActivitiesBetween,
  selectBalancesBefore,
  selectExecutionDays,
  selectExecutionsBetween,
  selectPositionsBefore,
  type CashRow,
  type ExecutionRow,
} from "./queries";

/**
 * An account's statement and trade confirmations, from the desk's books alone (no upstream call, so a bulk run
 * costs the upstream nothing and a statement can be produced again with the same figures).
 *
 * Balances: the desk's copy of the account's activities holds every cash change of the account (deposits,
 * withdrawals, journals, FX legs, trades net of commission and fees, dividends, interest, fees, tax), each with its
 * signed net amount. A currency's balance at a moment is the sum of the account's activities before it, so
 *   opening = Σ activities before the period's start,
 *   closing = opening + Σ activities within the period = Σ activities before the period's end,
 * per currency. This holds while the copy reaches back to the account's first activity (a first sweep reads
 * `ACTIVITIES_SWEEP_DAYS`, 400 days) and up to the period's end: a period that ends after the account's
 * `swept_until` is marked incomplete. Trades are the books' executions (commission and fees as the upstream
 * reported them); positions at the end are the net quantities of trades and position journals before the end.
 */

const MULTIPLIER: Record<string, number> = { OPTION: 100 };

const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
const nextDay = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);
const text = (d: Decimal) => d.toFixed();

function feeTotal(fees: unknown): Decimal {
  if (!Array.isArray(fees)) return new Decimal(0);
  return fees.reduce<Decimal>((sum, f) => {
    const v = (f as { actual_value?: unknown; amount?: unknown })?.actual_value ?? (f as { amount?: unknown })?.amount;
    return typeof v === "string" || typeof v === "number" ? sum.plus(new Decimal(v)) : sum;
  }, new Decimal(0));
}

/** One execution as a statement's trade: gross value, charges, and the net the account received (− paid). */
export function tradeOf(e: ExecutionRow): StatementTrade {
  const quantity = new Decimal(e.quantity);
  const gross = quantity.times(e.price).times(MULTIPLIER[e.instrument_type ?? ""] ?? 1);
  const commission = new Decimal(e.commission ?? 0);
  const fees = feeTotal(e.fees);
  const signed = e.side === "SELL" ? gross : gross.neg();
  return {
    at: new Date(e.filled_at).toISOString(),
    orderId: e.order_id,
    clientOrderId: e.client_order_id,
    market: e.market,
    symbol: e.symbol,
    side: e.side,
    quantity: text(quantity),
    price: text(new Decimal(e.price)),
    currency: orderCurrency(e.market) ?? "USD",
    gross: text(gross),
    commission: text(commission),
    fees: text(fees),
    net: text(signed.minus(commission).minus(fees)),
  };
}

/** One activity as a statement's cash line, with the currency's balance after it. */
const cashLineOf = (a: CashRow, balance: Decimal): StatementCashLine => ({
  at: new Date(a.biz_time).toISOString(),
  type: a.activity_type,
  subType: a.activity_sub_type,
  description: a.description,
  symbol: a.symbol,
  quantity: a.quantity,
  currency: a.currency,
  amount: text(new Decimal(a.net_amount)),
  balance: text(balance),
});

export function tradeTotals(trades: StatementTrade[]): Statement["tradeTotals"] {
  const by = new Map<string, { gross: Decimal; commission: Decimal; fees: Decimal; net: Decimal }>();
  for (const t of trades) {
    const s = by.get(t.currency) ?? { gross: new Decimal(0), commission: new Decimal(0), fees: new Decimal(0), net: new Decimal(0) };
    by.set(t.currency, {
      gross: s.gross.plus(t.gross),
      commission: s.commission.plus(t.commission),
      fees: s.fees.plus(t.fees),
      net: s.net.plus(t.net),
    });
  }
  return [...by]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, s]) => ({ currency, gross: text(s.gross), commission: text(s.commission), fees: text(s.fees), net: text(s.net) }));
}

/** Per currency, the executions' net against the TRADE cash lines where they differ (the two halves of the books). */
function tradeMismatches(totals: Statement["tradeTotals"], currencies: StatementCurrency[]): Statement["tradeMismatches"] {
  const names = [...new Set([...totals.map((t) => t.currency), ...currencies.map((c) => c.currency)])].sort();
  return names.flatMap((currency) => {
    const executions = new Decimal(totals.find((t) => t.currency === currency)?.net ?? 0);
    const activities = new Decimal(currencies.find((c) => c.currency === currency)?.byType.find((t) => t.type === "TRADE")?.amount ?? 0);
    return executions.eq(activities) ? [] : [{ currency, executions: text(executions), activities: text(activities) }];
  });
}

export async function accountStatement(q: Queryable, accountId: string, period: StatementPeriod, now = new Date()): Promise<Statement> {
  const start = dayStart(period.from);
  const end = nextDay(period.to);
  const [state, openingRows, activityRows, executionRows, positions] = await Promise.all([
    selectAccountState(q, accountId),
    selectBalancesBefore(q, accountId, start),
    selectActivitiesBetween(q, accountId, start, end),
    selectExecutionsBetween(q, accountId, start, end),
    selectPositionsBefore(q, accountId, end),
  ]);

  const running = new Map(openingRows.map((r) => [r.currency, new Decimal(r.amount)]));
  const sums = new Map<string, { credits: Decimal; debits: Decimal; byType: Map<string, Decimal> }>();
  const cash: StatementCashLine[] = activityRows.map((a) => {
    const amount = new Decimal(a.net_amount);
    const balance = (running.get(a.currency) ?? new Decimal(0)).plus(amount);
    running.set(a.currency, balance);
    const s = sums.get(a.currency) ?? { credits: new Decimal(0), debits: new Decimal(0), byType: new Map<string, Decimal>() };
    if (amount.gte(0)) s.credits = s.credits.plus(amount);
    else s.debits = s.debits.plus(amount);
    s.byType.set(a.activity_type, (s.byType.get(a.activity_type) ?? new Decimal(0)).plus(amount));
    sums.set(a.currency, s);
    return cashLineOf(a, balance);
  });

  const opening = new Map(openingRows.map((r) => [r.currency, new Decimal(r.amount)]));
  const currencies: StatementCurrency[] = [...new Set([...opening.keys(), ...sums.keys()])].sort().map((currency) => {
    const o = opening.get(currency) ?? new Decimal(0);
    const s = sums.get(currency);
    const credits = s?.credits ?? new Decimal(0);
    const debits = s?.debits ?? new Decimal(0);
    return {
      currency,
      opening: text(o),
      credits: text(credits),
      debits: text(debits),
      closing: text(o.plus(credits).plus(debits)),
      byType: [...(s?.byType ?? [])].sort(([a], [b]) => a.localeCompare(b)).map(([type, amount]) => ({ type, amount: text(amount) })),
    };
  });

  const trades = executionRows.map(tradeOf);
  const totals = tradeTotals(trades);
  const asOf = state.swept_until ? new Date(state.swept_until) : null;
  return {
    accountId,
    accountNumber: state.account_number,
    from: period.from,
    to: period.to,
    start: start.toISOString(),
    end: end.toISOString(),
    activitiesAsOf: asOf?.toISOString() ?? null,
    complete: !!asOf && asOf.getTime() >= end.getTime(),
    currencies,
    cash,
    trades,
    tradeTotals: totals,
    tradeMismatches: tradeMismatches(totals, currencies),
    positions: positions.map((p) => ({ market: p.market, symbol: p.symbol, quantity: new Decimal(p.quantity).toFixed() })),
    generatedAt: now.toISOString(),
  };
}

/** The trade confirmation of one execution day (UTC): every execution of the account that day. */
export async function tradeConfirmation(q: Queryable, accountId: string, date: string, now = new Date()): Promise<TradeConfirmation> {
  const [state, rows] = await Promise.all([
    selectAccountState(q, accountId),
    selectExecutionsBetween(q, accountId, dayStart(date), nextDay(date)),
  ]);
  const trades = rows.map(tradeOf);
  return { accountId, accountNumber: state.account_number, date, trades, totals: tradeTotals(trades), generatedAt: now.toISOString() };
}

/** The account's execution days, newest first (the account page lists a confirmation for each). */
export async function executionDays(q: Queryable, accountId: string, limit = 60): Promise<ExecutionDay[]> {
  return (await selectExecutionDays(q, accountId, limit)).map((r) => ({ date: r.day, executions: r.n }));
}
