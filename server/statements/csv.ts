import "server-only";
import type { Statement, StatementTrade, TradeConfirmation } from "@/lib/schemas/statements";

/**
 * The statement and the confirmation as CSV rows (cells quoted by lib/csv.ts through csvRoute): one table with a
 * `section` column, so a spreadsheet filters a part. Amounts are the exact decimal strings of the books.
 */
export const STATEMENT_CSV_COLUMNS = [
  "section",
  "time",
  "currency",
  "type",
  "description",
  "symbol",
  "side",
  "quantity",
  "price",
  "gross",
  "commission",
  "fees",
  "amount",
  "balance",
] as const;

type Cells = (string | null)[];

const tradeRow = (t: StatementTrade): Cells => [
  "trade",
  t.at,
  t.currency,
  t.market,
  t.orderId ?? t.clientOrderId,
  t.symbol,
  t.side,
  t.quantity,
  t.price,
  t.gross,
  t.commission,
  t.fees,
  t.net,
  null,
];

export function statementCsvRows(s: Statement): Cells[] {
  const rows: Cells[] = [];
  const balance = (type: string, currency: string, amount: string, at: string): Cells => [
    "balance",
    at,
    currency,
    type,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    amount,
    null,
  ];
  for (const c of s.currencies) rows.push(balance("opening", c.currency, c.opening, s.start));
  for (const c of s.currencies) {
    for (const t of c.byType)
      rows.push(["summary", null, c.currency, t.type, null, null, null, null, null, null, null, null, t.amount, null]);
  }
  for (const l of s.cash) {
    rows.push([
      "activity",
      l.at,
      l.currency,
      l.type,
      l.description ?? l.subType,
      l.symbol,
      null,
      l.quantity,
      null,
      null,
      null,
      null,
      l.amount,
      l.balance,
    ]);
  }
  rows.push(...s.trades.map(tradeRow));
  for (const p of s.positions)
    rows.push(["position", s.end, null, p.market, null, p.symbol, null, p.quantity, null, null, null, null, null, null]);
  for (const c of s.currencies) rows.push(balance("closing", c.currency, c.closing, s.end));
  return rows;
}

export function confirmationCsvRows(c: TradeConfirmation): Cells[] {
  return [
    ...c.trades.map(tradeRow),
    ...c.totals.map((t): Cells => [
      "total",
      c.date,
      t.currency,
      null,
      null,
      null,
      null,
      null,
      null,
      t.gross,
      t.commission,
      t.fees,
      t.net,
      null,
    ]),
  ];
}
