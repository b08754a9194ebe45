import type { SortingState, Updater, VisibilityState } from "@tanstack/react-table";
import { firstPage, type PageState, type Sort } from "@/lib/list-params";

/**
 * The hook's state transitions between the URL state (list-params.ts) and TanStack Table's state, as pure
 * functions: the hook only wires them to the URL, and the tests run them in Node.
 */

export function resolveUpdater<T>(updater: Updater<T>, old: T): T {
  return typeof updater === "function" ? (updater as (o: T) => T)(old) : updater;
}

export function sortingState(sort: Sort | undefined): SortingState {
  return sort ? [{ id: sort.id, desc: sort.desc }] : [];
}

/**
 * The URL patch of a sort change: one column, and only a column the server sorts by. A new order makes the
 * cursors of the old one meaningless, so paging starts again.
 */
export function sortPatch(
  current: SortingState,
  updater: Updater<SortingState>,
  sortable: readonly string[],
): Pick<PageState, "sort" | "cursor" | "prev" | "page"> {
  const next = resolveUpdater(updater, current)[0];
  const sort = next && sortable.includes(next.id) ? { id: next.id, desc: next.desc } : undefined;
  return { sort, ...firstPage() };
}

export function visibilityState(hide: readonly string[]): VisibilityState {
  return Object.fromEntries(hide.map((id) => [id, false]));
}

export function hidePatch(current: VisibilityState, updater: Updater<VisibilityState>): Pick<PageState, "hide"> {
  const next = resolveUpdater(updater, current);
  return {
    hide: Object.entries(next)
      .filter(([, visible]) => !visible)
      .map(([id]) => id),
  };
}

/** A filter (or page size) change: the patch, back on the first page. */
export function filterPatch<P extends object>(patch: P): P & Pick<PageState, "cursor" | "prev" | "page"> {
  return { ...patch, ...firstPage() };
}

/** Sorting is offered only on the columns the server sorts by, whatever a column definition says. */
export function withSortable<C extends { id?: string; enableSorting?: boolean }>(
  columns: readonly C[],
  sortable: readonly string[],
): (C & { enableSorting: boolean })[] {
  return columns.map((c) => ({ ...c, enableSorting: !!c.id && sortable.includes(c.id) }));
}
