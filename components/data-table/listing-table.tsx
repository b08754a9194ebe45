"use client";
import type { ReactNode } from "react";
import type { PageState } from "@/lib/list-params";
import { DataTable } from "./data-table";
import { ColumnsMenu, CursorPagination } from "./data-table-controls";
import { FilterBar, type FilterField, type FilterRule, type QuickViews } from "./filter-bar";
import type { Listing } from "./use-data-table";

/**
 * A listing as the desk shows every one: the filter bar (its fields and quick views, the columns menu, the CSV export
 * of the filter when the list offers one), what stands above the rows (`above`: totals), the rows, the pages.
 */
export function ListingTable<T, St extends PageState>({
  listing: { list, state, query, table, pagination, busy },
  filters,
  rules,
  views,
  label,
  exportPath,
  above,
  empty: [filtered, none],
  rowHref,
  rowTestId,
}: {
  listing: Listing<T, St>;
  filters: readonly FilterField<St>[];
  /** Rules across the filters (`dateRangeRule`), checked before the bar applies. */
  rules?: readonly FilterRule[];
  views?: QuickViews<St>;
  label: string;
  /** The CSV export's route; the list's filter is added to it. */
  exportPath?: string;
  above?: ReactNode;
  /** What the empty table says: with filters set, and without. */
  empty: [filtered: string, none: string];
  rowHref?: (row: T) => string;
  rowTestId?: (row: T) => string;
}) {
  return (
    <div className="flex flex-col gap-2">
      <FilterBar
        list={list}
        fields={filters}
        rules={rules}
        views={views}
        label={label}
        exportPath={exportPath}
        actions={<ColumnsMenu table={table} />}
      />
      {above}
      <DataTable
        table={table}
        query={query}
        busy={busy}
        empty={list.params.isFiltered(state) ? filtered : none}
        rowHref={rowHref}
        rowTestId={rowTestId}
      />
      <CursorPagination {...pagination} />
    </div>
  );
}
