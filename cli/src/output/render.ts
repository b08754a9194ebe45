import { usageError } from "../errors";
import type { JsonSchema } from "../skills/schema-args";
import { CSV_BOM, csvLine } from "./csv";

/**
 * A command's answer as the user asked for it: a table on a terminal, JSON otherwise, or `--output json|csv|table`
 * (BROKERDESK_OUTPUT sets the default). CSV and tables need rows: a listing's `rows` (or its one array of
 * objects), else the answer itself as one row; nested objects become dotted columns (`balance.amount`), arrays a
 * JSON cell.
 */

export type Format = "json" | "csv" | "table";
const FORMATS: Format[] = ["json", "csv", "table"];

export function chooseFormat(flag: string | undefined, env: Record<string, string | undefined>, isTTY: boolean): Format {
  const chosen = flag ?? env.BROKERDESK_OUTPUT;
  if (chosen === undefined || chosen === "") return isTTY ? "table" : "json";
  if (!FORMATS.includes(chosen as Format)) throw usageError(`--output must be one of ${FORMATS.join(", ")}: "${chosen}".`);
  return chosen as Format;
}

type Cell = string | number | boolean | null;
export type Table = { columns: string[]; rows: Record<string, Cell>[]; list: boolean };

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The key of the answer's list: `rows`, else its only array of objects (by the schema or by the data). */
export function listKey(output: unknown, schema?: JsonSchema): string | undefined {
  if (!isPlainObject(output)) return undefined;
  if (Array.isArray(output.rows)) return "rows";
  const props = schema?.properties ?? {};
  const bySchema = Object.keys(props).filter((k) => props[k].type === "array" && props[k].items?.type === "object");
  if (bySchema.length === 1 && Array.isArray(output[bySchema[0]])) return bySchema[0];
  const byData = Object.keys(output).filter((k) => Array.isArray(output[k]) && (output[k] as unknown[]).every(isPlainObject));
  return byData.length === 1 && (output[byData[0]] as unknown[]).length > 0 ? byData[0] : undefined;
}

function flatten(value: unknown, prefix: string, into: Record<string, Cell>): void {
  if (isPlainObject(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  } else if (Array.isArray(value) || isPlainObject(value)) into[prefix] = JSON.stringify(value);
  else if (value === undefined) into[prefix] = null;
  else into[prefix] = value as Cell;
}

export function flattenRow(row: unknown): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  if (isPlainObject(row)) flatten(row, "", out);
  else out.value = row === undefined ? null : (JSON.stringify(row) ?? null);
  return out;
}

/** The answer as rows and columns: the schema's item properties first (so an empty list still has a header). */
export function tabulate(output: unknown, schema?: JsonSchema): Table {
  const key = Array.isArray(output) ? undefined : listKey(output, schema);
  const list = Array.isArray(output) || key !== undefined;
  const raw: unknown[] = Array.isArray(output) ? output : key ? ((output as Record<string, unknown>)[key] as unknown[]) : [output];
  const rows = raw.map(flattenRow);
  const itemSchema = key ? schema?.properties?.[key]?.items : undefined;
  const columns = new Set<string>(Object.keys(itemSchema?.properties ?? {}));
  for (const row of rows) for (const c of Object.keys(row)) columns.add(c);
  return { columns: [...columns], rows, list };
}

export function toCsv(table: Table, header = true): string {
  let text = header ? `${CSV_BOM}${csvLine(table.columns)}` : "";
  for (const row of table.rows) text += csvLine(table.columns.map((c) => row[c] ?? null));
  return text;
}

const MAX_CELL = 48;
const cellText = (v: Cell | undefined) => {
  const text = v === null || v === undefined ? "" : String(v).replace(/[\r\n\t]+/g, " ");
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
};

/** Aligned columns for a person; one answer that is not a list is shown as field / value lines. */
export function toTable(table: Table): string {
  if (!table.list && table.rows.length === 1) {
    const row = table.rows[0];
    const width = Math.max(0, ...table.columns.map((c) => c.length));
    return table.columns.map((c) => `${c.padEnd(width)}  ${cellText(row[c]).trimEnd()}`.trimEnd()).join("\n") + "\n";
  }
  if (!table.rows.length) return table.columns.length ? `${table.columns.join("  ")}\n(no rows)\n` : "(no rows)\n";
  const widths = table.columns.map((c) => Math.max(c.length, ...table.rows.map((r) => cellText(r[c]).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  const head = line(table.columns.map((c) => c.toUpperCase()));
  return [head, ...table.rows.map((r) => line(table.columns.map((c) => cellText(r[c]))))].join("\n") + "\n";
}

export function render(output: unknown, format: Format, schema?: JsonSchema): string {
  if (format === "json") return `${JSON.stringify(output, null, 2)}\n`;
  const table = tabulate(output, schema);
  return format === "csv" ? toCsv(table) : toTable(table);
}
