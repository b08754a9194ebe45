"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/data-table/data-table";
import { ColumnsMenu, CursorPagination } from "@/components/data-table/data-table-controls";
import { fetchJson } from "@/components/data-table/fetch-json";
import { useDataTable, useListState, type ListPage } from "@/components/data-table/use-data-table";
import { alertListParams, type AlertRow, type SurveillanceRule } from "@/lib/schemas/surveillance";
import { alertColumns } from "./alerts-columns";
import { alertKeys, alertUrls } from "./alert-labels";
import { AlertsToolbar } from "./alerts-toolbar";

/** The compliance queue: URL state → one page through /api/alerts, prefetched by the page; live notices refetch it. */
export function AlertsTable({ rules }: { rules: Pick<SurveillanceRule, "id" | "name">[] }) {
  const list = useListState(alertListParams);
  const { state } = list;
  const query = useQuery({
    queryKey: alertKeys.list(state),
    queryFn: ({ signal }) => fetchJson<ListPage<AlertRow>>(alertUrls.list(state), signal),
    placeholderData: keepPreviousData,
  });
  const { table, pagination, busy } = useDataTable({
    list,
    columns: alertColumns,
    page: query.data,
    getRowId: (r) => r.id,
    fetching: query.isPlaceholderData,
  });
  return (
    <div className="flex flex-col gap-2">
      <AlertsToolbar list={list} rules={rules} columns={<ColumnsMenu table={table} />} />
      <DataTable
        table={table}
        isLoading={query.isPending}
        error={query.isError ? query.error : null}
        onRetry={() => void query.refetch()}
        busy={busy}
        empty={alertListParams.isFiltered(state) ? "No alerts match these filters." : "No alerts yet."}
        rowHref={(r) => `/alerts/${r.id}`}
        rowTestId={() => "alert-row"}
      />
      <CursorPagination {...pagination} />
    </div>
  );
}
