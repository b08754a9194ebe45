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
type Column = (typeof STATEMENT_CSV_COLUMNS)[number];

/** One row of the table: its section and the columns it fills, the rest empty. */
const row = (section: string, cells: Partial<Record<Exclude<Column, "section">, string | null | undefined>>): Cells =>
  STATEMENT_CSV_COLUMNS.map((c) => (c === "section" ? section : (cells[c] ?? null)));

const tradeRow = (t: StatementTrade): Cells =>
  row("trade", {
    time: t.at,
    currency: t.currency,
    type: t.market,
    description: t.orderId ?? t.clientOrderId,
    symbol: t.symbol,
    side: t.side,
    quantity: t.quantity,
    price: t.price,
    gross: t.gross,
    commission: t.commission,
    fees: t.fees,
    amount: t.net,
  });

export function statementCsvRows(s: Statement): Cells[] {
  const balance = (type: string, at: string) => (c: Statement["currencies"][number]) =>
    row("balance", { time: at, currency: c.currency, type, amount: type === "opening" ? c.opening : c.closing });
  return [
    ...s.currencies.map(balance("opening", s.start)),
    ...s.currencies.flatMap((c) => c.byType.map((t) => row("summary", { currency: c.currency, type: t.type, amount: t.amount }))),
    ...s.cash.map((l) =>
      row("activity", {
        time: l.at,
        currency: l.currency,
        type: l.type,
        description: l.description ?? l.subType,
        symbol: l.symbol,
        quantity: l.quantity,
        amount: l.amount,
        balance: l.balance,
      }),
    ),
    ...s.trades.map(tradeRow),
    ...s.positions.map((p) => row("position", { time: s.end, type: p.market, symbol: p.symbol, quantity: p.quantity })),
    ...s.currencies.map(balance("closing", s.end)),
  ];
}

export function confirmationCsvRows(c: TradeConfirmation): Cells[] {
  return [
    ...c.trades.map(tradeRow),
    ...c.totals.map((t) =>
      row("total", { time: c.date, currency: t.currency, gross: t.gross, commission: t.commission, fees: t.fees, amount: t.net }),
    ),
  ];
}
