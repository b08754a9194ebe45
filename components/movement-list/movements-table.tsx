"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/data-table/data-table";
import { ColumnsMenu, CursorPagination } from "@/components/data-table/data-table-controls";
import { fetchJson } from "@/components/data-table/fetch-json";
import { useDataTable, useListState } from "@/components/data-table/use-data-table";
import { movementHref, movementListParams, type MovementPage, type MovementTotals } from "@/lib/schemas/movement-list";
import { movementColumns } from "./movement-columns";
import { MovementToolbar } from "./movement-toolbar";
import { MovementTotalsBar } from "./movement-totals";
import { movementKeys, movementUrls } from "./query-keys";

/**
 * The movements list: URL state → one keyset page, and the filter's totals, through /api/movements, both prefetched
 * by the page on first load. Their keys are under "movements", so a movement notice on the live channel refetches
 * them in place; paging keeps the totals (their key is the filter alone).
 */
export function MovementsTable() {
  const list = useListState(movementListParams);
  const { state } = list;
  const query = useQuery({
    queryKey: movementKeys.list(state),
    queryFn: ({ signal }) => fetchJson<MovementPage>(movementUrls.list(state), signal),
    placeholderData: keepPreviousData,
  });
  const totals = useQuery({
    queryKey: movementKeys.totals(state),
    queryFn: ({ signal }) => fetchJson<MovementTotals>(movementUrls.totals(state), signal),
    placeholderData: keepPreviousData,
  });
  const { table, pagination, busy } = useDataTable({
    list,
    columns: movementColumns,
    page: query.data,
    getRowId: (r) => r.id,
    fetching: query.isPlaceholderData,
  });
  return (
    <div className="flex flex-col gap-2">
      <MovementToolbar list={list} columns={<ColumnsMenu table={table} />} />
      <MovementTotalsBar totals={totals.data} stale={totals.isPlaceholderData} />
      <DataTable
        table={table}
        isLoading={query.isPending}
        error={query.isError ? query.error : null}
        onRetry={() => void query.refetch()}
        busy={busy}
        empty={movementListParams.isFiltered(state) ? "No movements match these filters." : "No money movements yet."}
        rowHref={(r) => movementHref(r.kind, r.clientRequestId)}
        rowTestId={(r) => `movement-row-${r.clientRequestId}`}
      />
      <CursorPagination {...pagination} />
    </div>
  );
}
