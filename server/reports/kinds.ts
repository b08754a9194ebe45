import "server-only";
import Decimal from "decimal.js";
import type { ReportKind } from "@/lib/schemas/reports";
import type { Queryable } from "@/server/db/engine";
import { lastRunFinishedBetween } from "@/server/reconciliation/queries";
import { tradeOf } from "@/server/statements/statement";
import { selectAlertsOfDay, selectBreaksOfDay, selectExecutionsOfDay, selectFxVolumeOfDay, selectMovementsOfDay } from "./queries";

/**
 * Each report kind as one table of the day's figures from the books: columns (the CSV's header; the PDF's widths,
 * landscape A4, 762 points in all), rows of plain values (decimal strings as stored, moments as ISO UTC), and a few
 * summary lines for the PDF's heading and the mail's text. CSV and PDF render the same table (render.ts).
 */
export interface ReportColumn {
  header: string;
  width: number;
  align?: "left" | "right";
  /** A money column: the index of the cell naming its currency (the PDF shows it in that currency's decimals). */
  currencyAt?: number;
}

export interface ReportTable {
  columns: ReportColumn[];
  rows: string[][];
  summary: [string, string][];
}

type Build = (q: Queryable, start: Date, end: Date) => Promise<ReportTable>;

/** A column and how a row fills its cell: a report's columns and cells come from one list, each header beside its value. */
type Field<T> = ReportColumn & { cell: (row: T) => string };

/** The table of `rows` in the columns `fields` name, with its summary lines. */
function reportTable<T>(rows: T[], fields: Field<T>[], summary: [string, string][]): ReportTable {
  return {
    columns: fields.map(({ cell: _cell, ...column }) => column),
    rows: rows.map((r) => fields.map((f) => f.cell(r))),
    summary,
  };
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : "");
const num = (v: string | null) => (v === null ? "" : new Decimal(v).toFixed());
const count = <T>(rows: T[], p: (r: T) => boolean) => String(rows.filter(p).length);
const total = <T>(rows: T[], n: (r: T) => number) => String(rows.reduce((s, r) => s + n(r), 0));

/** The day's last reconciliation run in words: what it compared and found, and per currency the omnibus difference. */
async function lastRunSummary(q: Queryable, start: Date, end: Date): Promise<[string, string][]> {
  const run = await lastRunFinishedBetween(q, start, end);
  if (!run?.summary) return [["Last reconciliation run", "none that day"]];
  const s = run.summary;
  return [
    [
      "Last reconciliation run",
      `#${run.id}, finished ${run.finishedAt}: ${s.compared} of ${s.accounts} accounts compared, ${s.found} break${s.found === 1 ? "" : "s"} found (${s.opened} new)`,
    ],
    ...s.omnibus.map((l): [string, string] => [
      `Omnibus ${l.currency}`,
      `books ${new Decimal(l.masterDesk).plus(l.virtualDesk).toFixed()}, upstream ${new Decimal(l.masterUpstream).plus(l.virtualUpstream).toFixed()}, difference ${new Decimal(l.masterUpstream).plus(l.virtualUpstream).minus(l.masterDesk).minus(l.virtualDesk).toFixed()}`,
    ]),
    ...s.notCompared.map((n): [string, string] => [`Not compared: ${n.accountNumber ?? n.accountId}`, n.reason]),
  ];
}

const breaks: Build = async (q, start, end) => {
  const [rows, lastRun] = await Promise.all([selectBreaksOfDay(q, start, end), lastRunSummary(q, start, end)]);
  return reportTable(
    rows,
    [
      { header: "Break", width: 34, align: "right", cell: (b) => b.id },
      { header: "Kind", width: 50, cell: (b) => b.kind },
      { header: "Account", width: 70, cell: (b) => b.account ?? "" },
      { header: "Currency or symbol", width: 60, cell: (b) => b.currency ?? b.symbol ?? "" },
      { header: "Desk", width: 70, align: "right", cell: (b) => num(b.deskValue) },
      { header: "Upstream", width: 70, align: "right", cell: (b) => num(b.upstreamValue) },
      { header: "Difference", width: 70, align: "right", cell: (b) => num(b.difference) },
      { header: "Status", width: 40, cell: (b) => b.status },
      { header: "Opened (UTC)", width: 70, cell: (b) => iso(b.openedAt) },
      { header: "Closed (UTC)", width: 70, cell: (b) => iso(b.closedAt) },
      { header: "Assigned to", width: 70, cell: (b) => b.assignedTo ?? "" },
      { header: "Summary", width: 88, cell: (b) => b.summary },
    ],
    [
      ["Open during the day", String(rows.length)],
      ["Opened that day", count(rows, (b) => new Date(b.openedAt) >= start)],
      // As at the day's end, whatever happened to a break since (the report may run days later: a missed slot).
      ["Closed that day", count(rows, (b) => !!b.closedAt && new Date(b.closedAt) < end)],
      ["Open at the day's end", count(rows, (b) => !b.closedAt || new Date(b.closedAt) >= end)],
      ...lastRun,
    ],
  );
};

const movements: Build = async (q, start, end) => {
  const rows = await selectMovementsOfDay(q, start, end);
  return reportTable(
    rows,
    [
      { header: "Time (UTC)", width: 66, cell: (m) => iso(m.createdAt) },
      { header: "Kind", width: 86, cell: (m) => m.kind },
      { header: "Account", width: 62, cell: (m) => m.account ?? "" },
      { header: "From", width: 62, cell: (m) => m.fromAccount ?? "" },
      { header: "To", width: 62, cell: (m) => m.toAccount ?? "" },
      { header: "Direction", width: 50, cell: (m) => m.direction ?? "" },
      { header: "Amount", width: 66, align: "right", currencyAt: 7, cell: (m) => num(m.amount) },
      { header: "Currency", width: 38, cell: (m) => m.currency ?? "" },
      { header: "To amount", width: 66, align: "right", currencyAt: 9, cell: (m) => num(m.toAmount) },
      { header: "To currency", width: 40, cell: (m) => m.toCurrency ?? "" },
      { header: "Symbol", width: 44, cell: (m) => m.symbol ?? "" },
      { header: "Quantity", width: 44, align: "right", cell: (m) => num(m.quantity) },
      { header: "Status", width: 76, cell: (m) => m.status },
    ],
    [
      ["Movements", String(rows.length)],
      ["Completed", count(rows, (m) => m.status === "COMPLETED")],
    ],
  );
};

const fxVolume: Build = async (q, start, end) => {
  const rows = await selectFxVolumeOfDay(q, start, end);
  return reportTable(
    rows,
    [
      { header: "Sold currency", width: 100, cell: (r) => r.currency },
      { header: "Bought currency", width: 100, cell: (r) => r.toCurrency },
      { header: "Exchanges", width: 80, align: "right", cell: (r) => String(r.n) },
      { header: "Amount sold", width: 140, align: "right", currencyAt: 0, cell: (r) => num(r.amount) },
      { header: "Amount bought", width: 140, align: "right", currencyAt: 1, cell: (r) => num(r.toAmount) },
    ],
    [["Completed exchanges", total(rows, (r) => r.n)]],
  );
};

const commissions: Build = async (q, start, end) => {
  const by = new Map<string, { account: string; currency: string; trades: number; gross: Decimal; commission: Decimal; fees: Decimal }>();
  for (const e of await selectExecutionsOfDay(q, start, end)) {
    const t = tradeOf(e);
    const key = `${e.account}\u0000${t.currency}`;
    const s = by.get(key) ?? { account: e.account, currency: t.currency, trades: 0, gross: new Decimal(0), commission: new Decimal(0), fees: new Decimal(0) };
    by.set(key, { ...s, trades: s.trades + 1, gross: s.gross.plus(t.gross), commission: s.commission.plus(t.commission), fees: s.fees.plus(t.fees) });
  }
  const rows = [...by.values()].sort((a, b) => a.account.localeCompare(b.account) || a.currency.localeCompare(b.currency));
  return reportTable(
    rows,
    [
      { header: "Account", width: 120, cell: (r) => r.account },
      { header: "Currency", width: 60, cell: (r) => r.currency },
      { header: "Trades", width: 60, align: "right", cell: (r) => String(r.trades) },
      { header: "Gross", width: 130, align: "right", currencyAt: 1, cell: (r) => r.gross.toFixed() },
      { header: "Commission", width: 120, align: "right", currencyAt: 1, cell: (r) => r.commission.toFixed() },
      { header: "Fees", width: 120, align: "right", currencyAt: 1, cell: (r) => r.fees.toFixed() },
    ],
    [
      ["Accounts", String(new Set(rows.map((r) => r.account)).size)],
      ["Trades", total(rows, (r) => r.trades)],
    ],
  );
};

const alerts: Build = async (q, start, end) => {
  const rows = await selectAlertsOfDay(q, start, end);
  const decidedThatDay = (a: (typeof rows)[number], status: string) =>
    a.status === status && !!a.decidedAt && new Date(a.decidedAt) >= start && new Date(a.decidedAt) < end;
  return reportTable(
    rows,
    [
      { header: "Alert", width: 40, align: "right", cell: (a) => a.id },
      { header: "Rule", width: 110, cell: (a) => a.rule },
      { header: "Account", width: 70, cell: (a) => a.account ?? "" },
      { header: "Status", width: 60, cell: (a) => a.status },
      { header: "Raised (UTC)", width: 80, cell: (a) => iso(a.raisedAt) },
      { header: "Decided (UTC)", width: 80, cell: (a) => iso(a.decidedAt) },
      { header: "Decided by", width: 100, cell: (a) => a.decidedBy ?? "" },
      { header: "Summary", width: 222, cell: (a) => a.summary },
    ],
    [
      ["Opened", count(rows, (a) => new Date(a.raisedAt) >= start && new Date(a.raisedAt) < end)],
      ["Cleared", count(rows, (a) => decidedThatDay(a, "cleared"))],
      ["Escalated", count(rows, (a) => decidedThatDay(a, "escalated"))],
    ],
  );
};

export const REPORT_TABLES: Record<ReportKind, Build> = {
  reconciliation_breaks: breaks,
  daily_movements: movements,
  fx_volume: fxVolume,
  commissions_by_account: commissions,
  alerts,
};
