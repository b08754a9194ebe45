import "server-only";
import { formatQuantity } from "@/lib/money";
import type { Statement, StatementTrade, TradeConfirmation } from "@/lib/schemas/statements";
import { docMoney, docTime, finish, heading, newDoc, section, table, warning, type Column, type Doc } from "@/server/pdf/kit";

/** The statement and the trade confirmation as PDF documents (A4, pdfkit). Amounts in the currency's decimals. */

const accountLine = (s: { accountNumber: string | null; accountId: string }) =>
  s.accountNumber ? `${s.accountNumber} (${s.accountId})` : s.accountId;

const TRADE_COLUMNS: Column[] = [
  { header: "Time (UTC)", width: 78 },
  { header: "Symbol", width: 62 },
  { header: "Side", width: 28 },
  { header: "Quantity", width: 42, align: "right" },
  { header: "Price", width: 50, align: "right" },
  { header: "Gross", width: 62, align: "right" },
  { header: "Commission", width: 56, align: "right" },
  { header: "Fees", width: 44, align: "right" },
  { header: "Net", width: 65, align: "right" },
  { header: "Ccy", width: 28 },
];

const tradeCells = (t: StatementTrade) => [
  docTime(t.at),
  t.symbol ?? "",
  t.side ?? "",
  formatQuantity(t.quantity),
  t.price,
  docMoney(t.gross, t.currency),
  docMoney(t.commission, t.currency),
  docMoney(t.fees, t.currency),
  docMoney(t.net, t.currency),
  t.currency,
];

/** A table of a row a currency and its four amounts (the balances, the trade totals): `amounts` maps header to field. */
function currencyAmounts<K extends string, T extends { currency: string } & Record<K, string>>(
  doc: Doc,
  amounts: Record<string, K>,
  rows: T[],
  empty: string,
) {
  const widths = [110, 110, 110, 125];
  const fields = Object.entries(amounts);
  table(
    doc,
    [{ header: "Currency", width: 60 }, ...fields.map(([header], i): Column => ({ header, width: widths[i], align: "right" }))],
    rows.map((r) => [r.currency, ...fields.map(([, key]) => docMoney(r[key], r.currency))]),
    { empty },
  );
}

const tradeTotals = (doc: Doc, totals: Statement["tradeTotals"]) =>
  currencyAmounts(doc, { Gross: "gross", Commission: "commission", Fees: "fees", Net: "net" }, totals, "No trades.");

export function statementPdf(s: Statement): Promise<Buffer> {
  const doc = newDoc(`Statement ${s.accountNumber ?? s.accountId} ${s.from} to ${s.to}`);
  heading(doc, "Account statement", [
    ["Account", accountLine(s)],
    ["Period", `${s.from} to ${s.to} (UTC days, both included)`],
    ["Activities included up to", s.activitiesAsOf ? docTime(s.activitiesAsOf) + " UTC" : "not read yet"],
    ["Generated", `${docTime(s.generatedAt)} UTC`],
  ]);
  if (!s.complete)
    warning(doc, "Provisional: the period ends after the account's activities were last read; later activity is not included.");
  for (const m of s.tradeMismatches) {
    warning(
      doc,
      `Check: the period's executions net ${docMoney(m.executions, m.currency)} ${m.currency}, its trade cash lines ${docMoney(m.activities, m.currency)} ${m.currency} (executions the desk did not receive, or trade activities not read yet).`,
    );
  }

  section(doc, "Balances", "Opening = the sum of the account's activities before the period; closing = opening + credits + debits.");
  currencyAmounts(
    doc,
    { Opening: "opening", Credits: "credits", Debits: "debits", Closing: "closing" },
    s.currencies,
    "No cash in any currency.",
  );

  section(doc, "Activity by type");
  table(
    doc,
    [
      { header: "Currency", width: 60 },
      { header: "Type", width: 150 },
      { header: "Amount", width: 120, align: "right" },
    ],
    s.currencies.flatMap((c) => c.byType.map((t) => [c.currency, t.type, docMoney(t.amount, c.currency)])),
    { empty: "No activity in the period." },
  );

  section(doc, "Cash activity");
  table(
    doc,
    [
      { header: "Time (UTC)", width: 78 },
      { header: "Type", width: 70 },
      { header: "Description", width: 157 },
      { header: "Ccy", width: 30 },
      { header: "Amount", width: 85, align: "right" },
      { header: "Balance", width: 95, align: "right" },
    ],
    s.cash.map((l) => [
      docTime(l.at),
      l.type,
      l.description ?? [l.subType, l.symbol].filter(Boolean).join(" "),
      l.currency,
      docMoney(l.amount, l.currency),
      docMoney(l.balance, l.currency),
    ]),
    { empty: "No activity in the period." },
  );

  section(doc, "Trades", "Executions in the period; net = what the account received (negative: paid), after commission and fees.");
  table(doc, TRADE_COLUMNS, s.trades.map(tradeCells), { empty: "No trades in the period." });
  if (s.trades.length) {
    section(doc, "Trade totals");
    tradeTotals(doc, s.tradeTotals);
  }

  section(doc, `Positions at ${s.to} end of day`, "Net quantities of the account's trades and position journals before the period's end.");
  table(
    doc,
    [
      { header: "Market", width: 60 },
      { header: "Symbol", width: 160 },
      { header: "Quantity", width: 120, align: "right" },
    ],
    s.positions.map((p) => [p.market ?? "", p.symbol, formatQuantity(p.quantity)]),
    { empty: "No positions." },
  );
  return finish(doc, `Statement · ${s.accountNumber ?? s.accountId} · ${s.from} to ${s.to}`);
}

export function confirmationPdf(c: TradeConfirmation): Promise<Buffer> {
  const doc = newDoc(`Trade confirmation ${c.accountNumber ?? c.accountId} ${c.date}`);
  heading(doc, "Trade confirmation", [
    ["Account", accountLine(c)],
    ["Trade date", `${c.date} (UTC)`],
    ["Generated", `${docTime(c.generatedAt)} UTC`],
  ]);
  section(doc, "Executions", "Net = what the account received (negative: paid), after commission and fees.");
  table(doc, TRADE_COLUMNS, c.trades.map(tradeCells), { empty: "No executions on this day." });
  section(doc, "Totals");
  tradeTotals(doc, c.totals);
  return finish(doc, `Trade confirmation · ${c.accountNumber ?? c.accountId} · ${c.date}`);
}
