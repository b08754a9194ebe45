import { RowsTable } from "@/components/ui/rows-table";
import type { BulkRowError } from "@/lib/schemas/bulk-journals";

/** Each bad row's problems: its line in the file (the header is line 1), the column and what is wrong. */
export function RowErrorsTable({ errors }: { errors: BulkRowError[] }) {
  return (
    <RowsTable
      label="Rows to fix"
      rows={errors}
      rowKey={(e) => `${e.line}:${e.column}`}
      rowProps={(e) => ({ "data-line": String(e.line), "data-column": e.column })}
      columns={[
        { head: "Line", cell: (e) => e.line, numeric: true, className: "w-14 tabular-nums" },
        {
          head: "Column",
          cell: (e) => (e.column === "row" ? <span className="text-slate-500">whole row</span> : <code>{e.column}</code>),
          className: "w-36",
        },
        { head: "Problem", cell: (e) => <span className="text-red-800">{e.message}</span> },
      ]}
    />
  );
}
