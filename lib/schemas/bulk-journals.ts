import { z } from "zod";
import type { ApprovalStatus } from "./approvals";
import { cashJournalSchema, positionJournalSchema } from "./movements";

/**
 * Bulk journals: a CSV of cash or position journals, one journal a row, each row parsed by the one-journal form's own
 * schema (`cashJournalSchema`, `positionJournalSchema`), so a row is exactly what that form would send. The upload
 * page and the server share the parser; the server alone checks what needs the upstream (accounts, available cash,
 * held quantity) and holds the batch.
 */
export const BULK_JOURNAL_MAX_ROWS = 1000;
export const BULK_JOURNAL_COLUMNS = [
  "kind",
  "from_account",
  "to_account",
  "currency",
  "amount",
  "instrument_type",
  "market",
  "symbol",
  "quantity",
] as const;
export type BulkJournalColumn = (typeof BULK_JOURNAL_COLUMNS)[number];

export const BULK_JOURNAL_TEMPLATE = [
  BULK_JOURNAL_COLUMNS.join(","),
  "CASH,MASTER_ACCOUNT_NUMBER,VIRTUAL_ACCOUNT_NUMBER,USD,1250.00,,,,",
  "POSITION,VIRTUAL_ACCOUNT_NUMBER,OTHER_VIRTUAL_ACCOUNT_NUMBER,,,EQUITY,US,AAPL,10",
  "",
].join("\n");

/** A batch id made once by the upload page; each row's client_request_id is the batch id and its line. */
const batchId = z.string().regex(/^[A-Za-z0-9_]{1,26}$/, "The batch id is missing; reload the page");
export const rowClientRequestId = (batch: string, line: number) => `${batch}-${line}`;

/** What the upload page sends: its batch id and the CSV text. */
export const bulkJournalUploadSchema = z.object({
  batch_id: batchId,
  csv: z
    .string({ message: "Paste or choose a CSV file" })
    .max(1_000_000, "The file is larger than 1 MB")
    .refine((s) => s.trim().length > 0, "Paste or choose a CSV file"),
});
export type BulkJournalUpload = z.output<typeof bulkJournalUploadSchema>;

export const bulkJournalRetrySchema = z.object({ batch_id: batchId });

const line = z.number().int().min(2);
export const bulkJournalRowSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("CASH_JOURNAL"), line, request: cashJournalSchema }),
  z.object({ kind: z.literal("POSITION_JOURNAL"), line, request: positionJournalSchema }),
]);
export type BulkJournalRow = z.output<typeof bulkJournalRowSchema>;

/** The held request: the batch's rows as they will be sent, each with its own client_request_id. */
export const bulkJournalBatchSchema = z
  .object({
    batch_id: batchId,
    rows: z.array(bulkJournalRowSchema).min(1).max(BULK_JOURNAL_MAX_ROWS),
  })
  .superRefine((v, ctx) => {
    v.rows.forEach((r, i) => {
      if (r.request.client_request_id !== rowClientRequestId(v.batch_id, r.line))
        ctx.addIssue({ code: "custom", message: "A row's request id is not its batch's", path: ["rows", i] });
    });
  });
export type BulkJournalBatch = z.output<typeof bulkJournalBatchSchema>;

/** One problem of one row: its line in the file (the header is line 1), the column and what is wrong. */
export interface BulkRowError {
  line: number;
  column: BulkJournalColumn | "row";
  message: string;
}

/** The action's field errors carry a row's problem under `line:column`. */
export const rowErrorKey = (e: BulkRowError) => `${e.line}:${e.column}`;
export function rowErrorsOf(fieldErrors: Record<string, string> | [string, string][]): BulkRowError[] {
  const entries = Array.isArray(fieldErrors) ? fieldErrors : Object.entries(fieldErrors);
  return entries
    .map(([key, message]) => {
      const m = /^(\d+):([a-z_]+)$/.exec(key);
      return m ? { line: Number(m[1]), column: m[2] as BulkRowError["column"], message } : undefined;
    })
    .filter((e): e is BulkRowError => e !== undefined)
    .sort((a, b) => a.line - b.line || a.column.localeCompare(b.column));
}

/** RFC 4180 records with their first line's number: quoted fields may hold commas, quotes ("") and line breaks. */
export function csvRecords(text: string): { line: number; cells: string[] }[] {
  const out: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let lineNo = 1;
  let start = 1;
  const t = text.replace(/^\uFEFF/, "");
  const end = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0].trim() !== "") out.push({ line: start, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < t.length; i += 1) {
    const c = t[i];
    if (quoted) {
      if (c === '"' && t[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else {
        if (c === "\n") lineNo += 1;
        cell += c;
      }
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && t[i + 1] === "\n") i += 1;
      end();
      lineNo += 1;
      start = lineNo;
    } else cell += c;
  }
  if (cell !== "" || cells.length) end();
  return out;
}

const KINDS: Record<string, BulkJournalRow["kind"]> = {
  CASH: "CASH_JOURNAL",
  CASH_JOURNAL: "CASH_JOURNAL",
  POSITION: "POSITION_JOURNAL",
  POSITION_JOURNAL: "POSITION_JOURNAL",
};

/**
 * Parses the CSV into the batch's rows (each by its kind's schema) and every row's problems. Accounts stay as
 * written (a number or an id): the server resolves them.
 */
export function parseBulkJournalCsv(batch: string, text: string): { rows: BulkJournalRow[]; errors: BulkRowError[] } {
  const records = csvRecords(text);
  const errors: BulkRowError[] = [];
  const header = records[0]?.cells.map((h) => h.trim().toLowerCase()) ?? [];
  const missing = BULK_JOURNAL_COLUMNS.filter(
    (c) => !header.includes(c) && !["instrument_type", "market", "symbol", "quantity"].includes(c),
  );
  if (!records.length || missing.length) {
    return {
      rows: [],
      errors: [{ line: 1, column: "row", message: `The header must name the columns ${BULK_JOURNAL_COLUMNS.join(", ")}` }],
    };
  }
  const data = records.slice(1);
  if (!data.length) return { rows: [], errors: [{ line: 2, column: "row", message: "The file has no rows" }] };
  if (data.length > BULK_JOURNAL_MAX_ROWS) {
    const message = `${data.length.toLocaleString("en-US")} rows: a batch holds at most ${BULK_JOURNAL_MAX_ROWS.toLocaleString("en-US")}; split the file`;
    return { rows: [], errors: [{ line: data[BULK_JOURNAL_MAX_ROWS].line, column: "row", message }] };
  }
  const rows: BulkJournalRow[] = [];
  for (const rec of data) {
    const value = (c: BulkJournalColumn) => {
      const i = header.indexOf(c);
      return i < 0 ? "" : (rec.cells[i] ?? "").trim();
    };
    if (rec.cells.length > header.length)
      errors.push({ line: rec.line, column: "row", message: `More cells than the header's ${header.length}` });
    const kind = KINDS[value("kind").toUpperCase()];
    if (!kind) {
      errors.push({ line: rec.line, column: "kind", message: "Write CASH or POSITION" });
      continue;
    }
    const base = {
      client_request_id: rowClientRequestId(batch, rec.line),
      from_account: value("from_account"),
      to_account: value("to_account"),
    };
    const parsed =
      kind === "CASH_JOURNAL"
        ? cashJournalSchema.safeParse({ ...base, currency: value("currency").toUpperCase(), amount: value("amount") })
        : positionJournalSchema.safeParse({
            ...base,
            instrument_type: value("instrument_type").toUpperCase() || "EQUITY",
            market: value("market").toUpperCase() || "US",
            symbol: value("symbol"),
            quantity: value("quantity"),
          });
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const column = (BULK_JOURNAL_COLUMNS as readonly string[]).includes(String(issue.path[0]))
          ? (issue.path[0] as BulkJournalColumn)
          : "row";
        if (seen.has(column)) continue;
        seen.add(column);
        errors.push({ line: rec.line, column, message: issue.message });
      }
      continue;
    }
    const row = bulkJournalRowSchema.safeParse({ kind, line: rec.line, request: parsed.data });
    if (row.success) rows.push(row.data);
  }
  return { rows, errors };
}

/** A row's result as the batch page shows it. */
export const BULK_ROW_STATUSES = ["pending", "sending", "sent", "failed"] as const;
export type BulkRowStatus = (typeof BULK_ROW_STATUSES)[number];

export interface BulkRowView {
  line: number;
  kind: BulkJournalRow["kind"];
  clientRequestId: string;
  fromAccount: string;
  toAccount: string;
  currency: string | null;
  amount: string | null;
  symbol: string | null;
  quantity: string | null;
  status: BulkRowStatus;
  upstreamStatus: string | null;
  message: string | null;
  attempts: number;
}

/** A batch as its page shows it: its approval request (the latest holding it) and its rows with their results. */
export interface BatchView {
  id: string;
  makerEmail: string;
  createdAt: string;
  lastRunAt: string | null;
  approval: { id: string; status: ApprovalStatus; summary: string; error: string | null } | undefined;
  rows: BulkRowView[];
  /** Account id → number, for the accounts the rows name. */
  accountNumbers: Record<string, string>;
}
