"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getCoreRowModel, useReactTable, type ColumnDef } from "@tanstack/react-table";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { firstPage, hasPreviousPage, nextPage, pageNumber, previousPage, type ListParams, type PageState } from "@/lib/list-params";
import { fetchJson } from "./fetch-json";
import type { ListResource } from "./list-resource";
import { filterPatch, hidePatch, sortingState, sortPatch, visibilityState, withSortable } from "./table-state";

type History = { history?: "push" | "replace" };

/** The address bar's query, read again on Back / Forward and after the list writes the URL. */
const URL_WRITTEN = "brokerdesk:list-url";
const subscribeToUrl = (onChange: () => void) => {
  window.addEventListener("popstate", onChange);
  window.addEventListener(URL_WRITTEN, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(URL_WRITTEN, onChange);
  };
};
const locationSearch = () => window.location.search;

/**
 * The listing's state, read from the URL with its params builder and written back to it with the History API
 * (shareable, survives a reload, Back works) without a server round trip; TanStack Query then reads the page again
 * from the listing's GET route (`useListQuery`).
 *
 * On the client the state is the address bar's own query, not Next's search params: a Back pressed while the page
 * hydrates after a reload, to an entry the list pushed before it, can leave Next's search params on the reloaded URL
 * while the address bar shows the earlier one. The server render and hydration use Next's (the same URL then).
 */
export function useListState<St extends PageState>(params: ListParams<St>) {
  const serverSearch = useSearchParams().toString();
  const pathname = usePathname();
  const search = useSyncExternalStore(subscribeToUrl, locationSearch, () => (serverSearch ? `?${serverSearch}` : ""));
  const state = useMemo(() => params.parse(new URLSearchParams(search)), [params, search]);

  const setState = useCallback(
    (patch: Partial<St>, { history = "push" }: History = {}) => {
      const url = `${pathname}${params.toQuery({ ...state, ...patch })}`;
      // The same state again (a filter applied twice) adds no entry to the history.
      if (url === `${window.location.pathname}${window.location.search}`) return;
      if (history === "replace") window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
      window.dispatchEvent(new Event(URL_WRITTEN));
    },
    [params, pathname, state],
  );
  /** A filter change, back on the first page. */
  const setFilters = useCallback((patch: Partial<St>) => setState(filterPatch(patch)), [setState]);
  return { params, state, setState, setFilters };
}

/**
 * The page of the list's state through its GET route (or a part of the answer for its filter: `listPart`):
 * prefetched by the page on the first load (same key), the previous rows kept (dimmed) while the next page loads,
 * read again when a live notice invalidates the key's root.
 */
export function useListQuery<P, St extends PageState>(resource: ListResource<St>, state: St) {
  return useQuery({
    queryKey: resource.key(state),
    queryFn: ({ signal }) => fetchJson<P>(resource.url(state), signal),
    placeholderData: keepPreviousData,
  });
}

export type ListStateApi<St extends PageState> = ReturnType<typeof useListState<St>>;

/**
 * A listing in one: its URL state (`useListState`), its page through the GET route (`useListQuery`) and its table
 * (`useDataTable`). A table whose columns depend on the page (the approvals' ages) composes the three itself.
 */
export function useListing<T, St extends PageState, P extends ListPage<T> = ListPage<T>>(
  params: ListParams<St>,
  resource: ListResource<St>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's own column type takes any value type
  { columns, getRowId }: { columns: ColumnDef<T, any>[]; getRowId: (row: T) => string },
) {
  const list = useListState(params);
  const query = useListQuery<P, St>(resource, list.state);
  const { table, pagination, busy } = useDataTable({ list, columns, page: query.data, getRowId, fetching: query.isPlaceholderData });
  return { list, state: list.state, query, table, pagination, busy };
}
export type Listing<T, St extends PageState> = ReturnType<typeof useListing<T, St>>;

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
    hasFirst: !!state.cursor,
    hasPrevious: hasPreviousPage(state),
    hasNext: !!nextCursor,
    onFirst: () => setState(firstPage() as Partial<St>),
    onPrevious: () => setState(previousPage(state) as Partial<St>),
    onNext: () => nextCursor && setState(nextPage(state, nextCursor) as Partial<St>),
    onPageSize: (size: number) => setState(filterPatch({ size }) as Partial<St>),
  };
  return { table, pagination, busy: fetching };
}
