"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { DataTable } from "@/components/data-table/data-table";
import { ColumnsMenu, CursorPagination } from "@/components/data-table/data-table-controls";
import { fetchJson } from "@/components/data-table/fetch-json";
import { useDataTable, useListState, type ListPage } from "@/components/data-table/use-data-table";
import { accountListParams } from "@/lib/schemas/account-list-params";
import type { AccountRow } from "@/lib/schemas/virtual-account-view";
import { accountColumns } from "./accounts-columns";
import { AccountsToolbar } from "./accounts-toolbar";
import { accountKeys, accountUrls } from "./query-keys";

/** The accounts list: URL state → one upstream page through /api/accounts, prefetched by the page on first load. */
export function AccountsTable() {
  const list = useListState(accountListParams);
  const { state } = list;
  const query = useQuery({
    queryKey: accountKeys.list(state),
    queryFn: ({ signal }) => fetchJson<ListPage<AccountRow>>(accountUrls.list(state), signal),
    placeholderData: keepPreviousData,
  });
  const { table, pagination, busy } = useDataTable({
    list,
    columns: accountColumns,
    page: query.data,
    getRowId: (r) => r.account_id,
    fetching: query.isPlaceholderData,
  });

  return (
    <div className="flex flex-col gap-2">
      <AccountsToolbar list={list} columns={<ColumnsMenu table={table} />} />
      <DataTable
        table={table}
        isLoading={query.isPending}
        error={query.isError ? query.error : null}
        onRetry={() => void query.refetch()}
        busy={busy}
        empty={accountListParams.isFiltered(state) ? "No accounts match these filters." : "There are no virtual accounts yet."}
        rowHref={(r) => `/accounts/${r.account_id}`}
        rowTestId={(r) => `account-row-${r.external_account_number}`}
      />
      <CursorPagination {...pagination} />
    </div>
  );
}
