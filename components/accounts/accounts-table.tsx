"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getCoreRowModel, getSortedRowModel, useReactTable, type SortingState, type Updater, type VisibilityState } from "@tanstack/react-table";
import { useCallback, useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { ColumnsMenu, CursorPagination } from "@/components/data-table/data-table-controls";
import { fetchJson } from "@/components/data-table/fetch-json";
import { useUrlState } from "@/components/data-table/use-url-state";
import { accountListQuery, PAGE_SIZES, parseAccountListParams, type AccountListParams } from "@/lib/schemas/account-list-params";
import type { AccountRow } from "@/lib/schemas/virtual-account-view";
import { accountColumns } from "./accounts-columns";
import { AccountsToolbar } from "./accounts-toolbar";
import { accountKeys, accountUrls } from "./query-keys";

interface AccountPage {
  rows: AccountRow[];
  nextCursor?: string;
}

const resolve = <T,>(u: Updater<T>, old: T): T => (typeof u === "function" ? (u as (o: T) => T)(old) : u);

/** The accounts list: URL state → one upstream page through /api/accounts, prefetched by the page on first load. */
export function AccountsTable() {
  const [params, setParams] = useUrlState<AccountListParams>(parseAccountListParams, accountListQuery);
  const query = useQuery({
    queryKey: accountKeys.list(params),
    queryFn: ({ signal }) => fetchJson<AccountPage>(accountUrls.list(params), signal),
    placeholderData: keepPreviousData,
  });

  const sorting = useMemo<SortingState>(() => {
    if (!params.sort) return [];
    const [id, dir] = params.sort.split(".");
    return [{ id, desc: dir === "desc" }];
  }, [params.sort]);
  const visibility = useMemo<VisibilityState>(
    () => Object.fromEntries((params.hide ?? "").split(",").filter(Boolean).map((id) => [id, false])),
    [params.hide],
  );

  const table = useReactTable({
    data: query.data?.rows ?? [],
    columns: accountColumns,
    getRowId: (r) => r.account_id,
    state: { sorting, columnVisibility: visibility },
    onSortingChange: (u) => {
      const next = resolve(u, sorting)[0];
      setParams({ sort: next ? `${next.id}.${next.desc ? "desc" : "asc"}` : undefined }, { history: "replace" });
    },
    onColumnVisibilityChange: (u) => {
      const next = resolve(u, visibility);
      const hidden = Object.entries(next).filter(([, v]) => !v).map(([k]) => k);
      setParams({ hide: hidden.join(",") || undefined }, { history: "replace" });
    },
    manualPagination: true,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  // Cursors of the pages before this one; "-" stands for the first page (which has no cursor).
  const trail = params.prev ? params.prev.split(",") : [];
  const filter = useCallback((patch: Partial<AccountListParams>) => setParams({ ...patch, cursor: undefined, prev: undefined }), [setParams]);

  return (
    <div className="flex flex-col gap-2">
      <AccountsToolbar params={params} onFilter={filter} exportQuery={accountListQuery({ ...params, cursor: undefined, prev: undefined, sort: undefined, hide: undefined, size: undefined })} columns={<ColumnsMenu table={table} />} />
      <DataTable
        table={table}
        isLoading={query.isPending}
        error={query.isError ? query.error : null}
        onRetry={() => void query.refetch()}
        busy={query.isPlaceholderData}
        empty={params.q || params.status || params.type || params.level || params.permission ? "No accounts match these filters." : "There are no virtual accounts yet."}
        rowHref={(r) => `/accounts/${r.account_id}`}
        rowTestId={(r) => `account-row-${r.external_account_number}`}
      />
      <CursorPagination
        page={trail.length + 1}
        pageSize={params.size}
        sizes={PAGE_SIZES}
        rowCount={query.data?.rows.length ?? 0}
        hasPrevious={!!params.cursor}
        hasNext={!!query.data?.nextCursor && !query.isPlaceholderData}
        onFirst={() => setParams({ cursor: undefined, prev: undefined })}
        onPrevious={() => {
          const back = [...trail];
          const cursor = back.pop();
          setParams({ cursor: cursor && cursor !== "-" ? cursor : undefined, prev: back.length ? back.join(",") : undefined });
        }}
        onNext={() => setParams({ cursor: query.data?.nextCursor, prev: [...trail, params.cursor ?? "-"].join(",") })}
        onPageSize={(size) => filter({ size })}
      />
    </div>
  );
}
