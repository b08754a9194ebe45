/**
 * A negative amount as the desk writes it ("-12.50"): a spreadsheet reads it as the number it is, and it runs nothing,
 * so it keeps its sign without the quote a formula gets (a quoted "-12.50" is text, which sums and sorts leave out).
 */
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

/** RFC 4180 quoting, plus a leading quote on values a spreadsheet would run as a formula (not on a negative number). */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) && !NEGATIVE_NUMBER.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(values: (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}

/**
 * Every row of a keyset-paged listing as CSV values, newest first, reading the next page only when the download
 * wants more rows.
 */
export async function* pagedCsvRows<R>(
  readPage: (cursor: string | undefined) => Promise<{ rows: R[]; nextCursor?: string }>,
  toValues: (row: R) => (string | number | null)[],
): AsyncGenerator<(string | number | null)[]> {
  let cursor: string | undefined;
  do {
    const page = await readPage(cursor);
    for (const row of page.rows) yield toValues(row);
    cursor = page.nextCursor;
  } while (cursor);
}
