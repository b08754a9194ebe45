"use client";
import { flexRender, type Column, type RowData, type Table } from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { table as cls } from "@/components/ui/page";

declare module "@tanstack/react-table" {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Right-aligned tabular numbers. */
    numeric?: boolean;
    /** Label in the column visibility menu and the header. */
    label?: string;
    className?: string;
  }
}

/** What the table reads of a TanStack Query result. */
export interface ListQueryState {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/**
 * The generic table: header with sort toggles (a plain string header becomes one when its column can sort), rows
 * with an optional link, and the three states every listing needs (loading skeleton, error with Retry, empty).
 * Model: sadmann7/tablecn components/data-table.
 */
export function DataTable<T>({
  table,
  query,
  empty,
  rowHref,
  rowTestId,
  busy,
}: {
  table: Table<T>;
  /** The list's query: pending → skeleton rows, failed → its message with a Retry (a refetch). */
  query: ListQueryState;
  empty: ReactNode;
  rowHref?: (row: T) => string;
  rowTestId?: (row: T) => string;
  /** A refetch is under way: rows stay visible, dimmed. */
  busy?: boolean;
}) {
  const router = useRouter();
  const isLoading = query.isPending;
  const error = query.isError ? query.error : null;
  const onRetry = () => void query.refetch();
  const columns = table.getVisibleLeafColumns();
  const rows = table.getRowModel().rows;
  return (
    <div className={`${cls.wrap} ${busy ? "opacity-60 transition-opacity" : ""}`} aria-busy={busy || isLoading}>
      <table className={cls.table}>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th
                  key={header.id}
                  className={`${cls.th} ${header.column.columnDef.meta?.numeric ? "text-right" : ""}`}
                  aria-sort={ariaSort(header.column)}
                >
                  {header.isPlaceholder ? null : typeof header.column.columnDef.header === "string" ? (
                    <SortHeader column={header.column} title={header.column.columnDef.header} />
                  ) : (
                    flexRender(header.column.columnDef.header, header.getContext())
                  )}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {error ? (
            <tr>
              <td colSpan={columns.length} className={cls.empty}>
                <div role="alert" className="flex flex-col items-center gap-2 text-red-800">
                  <span>{error.message}</span>
                  <Button variant="secondary" size="sm" onClick={onRetry}>
                    Retry
                  </Button>
                </div>
              </td>
            </tr>
          ) : isLoading ? (
            Array.from({ length: 8 }, (_, i) => (
              <tr key={i} aria-hidden>
                {columns.map((c) => (
                  <td key={c.id} className={cls.td}>
                    <div className="h-3.5 animate-pulse rounded bg-slate-100" />
                  </td>
                ))}
              </tr>
            ))
          ) : rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className={cls.empty}>
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const href = rowHref?.(row.original);
              return (
                <tr
                  key={row.id}
                  data-testid={rowTestId?.(row.original)}
                  className={
                    href
                      ? "cursor-pointer hover:bg-blue-50/60 focus-visible:bg-blue-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600"
                      : undefined
                  }
                  onClick={href ? (e) => !(e.target as HTMLElement).closest("a,button,input,select") && router.push(href) : undefined}
                  // Opened from the keyboard too: Tab to the row, Enter.
                  tabIndex={href ? 0 : undefined}
                  onKeyDown={href ? (e) => e.key === "Enter" && e.target === e.currentTarget && router.push(href) : undefined}
                >
                  {row.getVisibleCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={`${cls.td} ${cell.column.columnDef.meta?.numeric ? "num" : ""} ${cell.column.columnDef.meta?.className ?? ""}`}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}

function ariaSort<T>(column: Column<T>): "ascending" | "descending" | undefined {
  const s = column.getIsSorted();
  return s === "asc" ? "ascending" : s === "desc" ? "descending" : undefined;
}

/** A header that toggles sorting when the column can sort (the server sorts: see useDataTable). */
export function SortHeader<T>({ column, title, hint }: { column: Column<T>; title: string; hint?: string }) {
  if (!column.getCanSort()) return <>{title}</>;
  const s = column.getIsSorted();
  return (
    <button
      type="button"
      className="inline-flex items-center gap-1 hover:text-slate-900"
      onClick={column.getToggleSortingHandler()}
      title={hint}
    >
      {title}
      <span aria-hidden className="text-[10px] text-slate-400">
        {s === "asc" ? "▲" : s === "desc" ? "▼" : "↕"}
      </span>
    </button>
  );
}
