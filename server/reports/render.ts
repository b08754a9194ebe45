import "server-only";
import { csvLine } from "@/lib/csv";
import { REPORT_KIND_LABELS, type ReportFormat, type ReportKind } from "@/lib/schemas/reports";
import type { Queryable } from "@/server/db/engine";
import { docMoney, docTime, finish, heading, newDoc, table } from "@/server/pdf/kit";
import { REPORT_TABLES, type ReportTable } from "./kinds";
import { dayBounds } from "./slots";

/** A report rendered: the file, its rows and summary (for the run's row and the mail's text). */
export interface RenderedReport {
  fileName: string;
  contentType: string;
  content: Uint8Array;
  rows: number;
  summary: [string, string][];
}

const ISO_MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A cell as the PDF shows it: moments to the minute, money in its currency's decimals; the CSV keeps the values. */
function pdfCell(t: ReportTable, row: string[], i: number): string {
  const value = row[i] ?? "";
  if (ISO_MOMENT.test(value)) return docTime(value);
  const at = t.columns[i]?.currencyAt;
  return at !== undefined && value !== "" ? docMoney(value, row[at] ?? "") : value;
}

/** The CSV: a byte-order mark (spreadsheets read UTF-8), the header, the rows, through `csvLine`. */
export function reportCsv(t: ReportTable): Uint8Array {
  const text = `\uFEFF${csvLine(t.columns.map((c) => c.header))}${t.rows.map(csvLine).join("")}`;
  return new TextEncoder().encode(text);
}

export async function reportPdf(t: ReportTable, title: string, lines: [string, string][]): Promise<Uint8Array> {
  const doc = newDoc(title, "landscape");
  heading(doc, title, [...lines, ...t.summary]);
  table(
    doc,
    t.columns,
    t.rows.map((r) => r.map((_, i) => pdfCell(t, r, i))),
    { empty: "Nothing on this day." },
  );
  return new Uint8Array(await finish(doc, title));
}

/** The report of `kind` over the UTC day `day`, as the schedule's format. */
export async function renderReport(
  q: Queryable,
  r: { kind: ReportKind; format: ReportFormat; name: string },
  day: string,
  now: Date,
): Promise<RenderedReport> {
  const { start, end } = dayBounds(day);
  const t = await REPORT_TABLES[r.kind](q, start, end);
  const base = `${r.kind.replace(/_/g, "-")}-${day}`;
  const label = REPORT_KIND_LABELS[r.kind];
  const content =
    r.format === "csv"
      ? reportCsv(t)
      : await reportPdf(t, `${label} ${day}`, [
          ["Schedule", r.name],
          ["Day", `${day} (UTC, 00:00 to 24:00)`],
          ["Generated", `${docTime(now.toISOString())} UTC`],
          ["Rows", String(t.rows.length)],
        ]);
  return {
    fileName: `${base}.${r.format}`,
    contentType: r.format === "csv" ? "text/csv; charset=utf-8" : "application/pdf",
    content,
    rows: t.rows.length,
    summary: t.summary,
  };
}
