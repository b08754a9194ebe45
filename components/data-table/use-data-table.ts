"use client";
import { getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useTransition } from "react";
import { firstPage, nextPage, pageNumber, previousPage, type ListParams, type PageState } from "@/lib/list-params";
import { filterPatch, hidePatch, sortingState, sortPatch, visibilityState, withSortable } from "./table-state";

type History = { history?: "push" | "replace" };

/**
 * The listing's state, read from the URL with its params builder and written back to it (shareable, survives a
 * reload, Back works). Two ways to get the rows again after a change:
 * - "history" (default): the History API, which Next keeps in sync with useSearchParams without a server round
 *   trip; TanStack Query refetches from the GET route handler;
 * - "router": a navigation, so a server-rendered page reads its rows again (tables over the app's own database).
 */
export function useListState<St extends PageState>(
  params: ListParams<St>,
  { navigation = "history" }: { navigation?: "history" | "router" } = {},
) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const [navigating, startTransition] = useTransition();
  const state = useMemo(() => params.parse(new URLSearchParams(searchParams.toString())), [params, searchParams]);

  const setState = useCallback(
    (patch: Partial<St>, { history = "push" }: History = {}) => {
      const url = `${pathname}${params.toQuery({ ...state, ...patch })}`;
      if (navigation === "router")
        startTransition(() => (history === "replace" ? router.replace(url, { scroll: false }) : router.push(url, { scroll: false })));
      else if (history === "replace") window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
    },
    [navigation, params, pathname, router, state],
  );
  /** A filter change, back on the first page. */
  const setFilters = useCallback((patch: Partial<St>) => setState(filterPatch(patch)), [setState]);
  return { params, state, setState, setFilters, navigating };
}

export type ListStateApi<St extends PageState> = ReturnType<typeof useListState<St>>;

/** One page of rows and the cursor of the next one (absent on the last page). */
export interface ListPage<T> {
  rows: T[];
  nextCursor?: string;
}

const NO_ROWS: never[] = [];

/**
 * The table of a listing (model: sadmann7/tablecn src/hooks/use-data-table.ts): TanStack Table with sort and
 * column visibility kept in the URL, sorting offered only on the builder's sortable columns and done by the server,
 * and the props of the cursor pagination. Columns need an `id`: it is the URL's name for the column.
 */
export function useDataTable<T, St extends PageState>({
  list,
  columns,
  page,
  getRowId,
  fetching = false,
}: {
  list: ListStateApi<St>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's own column type takes any value type
  columns: ColumnDef<T, any>[];
  page: ListPage<T> | undefined;
  getRowId: (row: T) => string;
  /** Rows on screen are the previous page's while the next one loads: no "Next" until it is there. */
  fetching?: boolean;
}) {
  const { params, state, setState } = list;
  const tableColumns = useMemo(() => withSortable(columns, params.sortable), [columns, params.sortable]);
  const sorting = useMemo(() => sortingState(state.sort), [state.sort]);
  const columnVisibility = useMemo(() => visibilityState(state.hide), [state.hide]);

  const table = useReactTable({
    data: page?.rows ?? NO_ROWS,
    columns: tableColumns,
    getRowId,
    state: { sorting, columnVisibility },
    onSortingChange: (u) => setState(sortPatch(sorting, u, params.sortable) as Partial<St>, { history: "replace" }),
    onColumnVisibilityChange: (u) => setState(hidePatch(columnVisibility, u) as Partial<St>, { history: "replace" }),
    manualPagination: true,
    manualSorting: true,
    enableMultiSort: false,
    getCoreRowModel: getCoreRowModel(),
  });

  const nextCursor = fetching ? undefined : page?.nextCursor;
  const pagination = {
    page: pageNumber(state),
    pageSize: state.size,
    sizes: params.sizes,
    rowCount: page?.rows.length ?? 0,
    hasPrevious: !!state.cursor,
    hasNext: !!nextCursor,
    onFirst: () => setState(firstPage() as Partial<St>),
    onPrevious: () => setState(previousPage(state) as Partial<St>),
    onNext: () => nextCursor && setState(nextPage(state, nextCursor) as Partial<St>),
    onPageSize: (size: number) => setState(filterPatch({ size }) as Partial<St>),
  };
  return { table, pagination, busy: fetching || list.navigating };
}
