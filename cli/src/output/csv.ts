/**
 * CSV as the desk's exports write it (lib/csv.ts and server/http/csv.ts): a UTF-8 byte order mark, CRLF line ends,
 * RFC 4180 quoting, and a leading quote on a value a spreadsheet would run as a formula (a negative number is left as
 * it is). The CLI is installed on its own, so it keeps this small copy; tests/cli/output.test.ts checks that both
 * agree on any value.
 */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !NEGATIVE_NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(values: (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

export const CSV_BOM = "\uFEFF";
