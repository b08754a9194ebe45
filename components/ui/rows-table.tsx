import type { ReactNode } from "react";
import { table } from "./page";

type Attributes = Record<string, string | undefined>;

/** A column of a small table: its heading, what a row shows in it, numbers right-aligned, extra classes of its cells. */
export interface RowColumn<T> {
  head: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  numeric?: boolean;
  /** Extra classes of the column's cells. */
  className?: string;
  /** Extra classes of its heading (e.g. `hidden 2xl:table-cell` with the same on the cells). */
  headClassName?: string;
  /** The cell's `data-*` attributes (what a test reads from it). */
  data?: (row: T) => Attributes;
}

/**
 * A small table of the rows a panel holds (no paging, no sort, no column menu: a listing is the data-table kit's),
 * its columns declared as data. `rowProps` gives a row its `data-*` attributes and classes; `empty` is the row shown
 * when there are none.
 */
export function RowsTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  empty,
  label,
  testId,
}: {
  columns: RowColumn<T>[];
  rows: T[];
  rowKey: (row: T, index: number) => string;
  rowProps?: (row: T) => Attributes;
  empty?: string;
  label?: string;
  testId?: string;
}) {
  return (
    <div className={table.wrap}>
      <table className={table.table} aria-label={label} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} className={[table.th, c.numeric ? "text-right" : "", c.headClassName ?? ""].join(" ")}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td className={table.empty} colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          ) : null}
          {rows.map((r, k) => (
            <tr key={rowKey(r, k)} {...rowProps?.(r)}>
              {columns.map((c, i) => (
                <td key={i} className={[table.td, c.numeric ? "num" : "", c.className ?? ""].join(" ")} {...c.data?.(r)}>
                  {c.cell(r, k)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Above a live table whose last read failed: the rows shown are the last answer. */
export function StaleNotice({ show }: { show: boolean }) {
  return show ? (
    <p role="alert" className="mb-2 text-sm text-red-700">
      Could not refresh; showing the last answer.
    </p>
  ) : null;
}
