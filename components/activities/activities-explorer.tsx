"use client";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { DataTable } from "@/components/data-table/data-table";
import { ColumnsMenu, CursorPagination } from "@/components/data-table/data-table-controls";
import { fetchJson } from "@/components/data-table/fetch-json";
import { useDataTable, useListState } from "@/components/data-table/use-data-table";
import { activityListParams, isLive, type ActivityPage, type ActivitySummary } from "@/lib/schemas/activity-list";
import { activityColumns } from "./activity-columns";
import { ActivityExport } from "./activity-export";
import { ActivityFreshnessLine, useActivityFreshness } from "./activity-freshness";
import { ActivitySummaryPanel } from "./activity-summary";
import { ActivityToolbar } from "./activity-toolbar";
import { activityKeys, activityUrls } from "./query-keys";

/**
 * The activities explorer: URL state → one page (the upstream's for one account, else the desk's copy), the
 * filter's totals and chart (the desk's copy), the copy's freshness, and the CSV export with its progress.
 */
export function ActivitiesExplorer() {
  const list = useListState(activityListParams);
  const { state } = list;
  const live = isLive(state);
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: activityKeys.list(state),
    queryFn: ({ signal }) => fetchJson<ActivityPage>(activityUrls.list(state), signal),
    placeholderData: keepPreviousData,
  });
  const summary = useQuery({
    queryKey: activityKeys.summary(state),
    queryFn: ({ signal }) => fetchJson<ActivitySummary>(activityUrls.summary(state), signal),
    placeholderData: keepPreviousData,
  });
  const freshness = useActivityFreshness(state.account);
  // Rows never move under the reader: a copy newer than the one these sums were read from offers a Refresh.
  const stale = !live && !!freshness.data && !!summary.data && !summary.isPlaceholderData && freshness.data.asOf !== summary.data.asOf;

  const { table, pagination, busy } = useDataTable({
    list,
    columns: activityColumns,
    page: query.data,
    getRowId: (r) => r.uid,
    fetching: query.isPlaceholderData,
  });
  return (
    <div className="flex flex-col gap-2">
      <ActivityToolbar
        list={list}
        actions={
          <>
            <ColumnsMenu table={table} />
            <ActivityExport url={activityUrls.export(state)} expected={summary.isPlaceholderData ? undefined : summary.data?.count} />
          </>
        }
      />
      <ActivityFreshnessLine
        status={freshness.data}
        stale={stale}
        account={state.account}
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: ["activities"] })}
      />
      {live ? (
        <p className="text-xs text-slate-600" data-testid="activity-source">
          Rows are read live from the upstream, a page at a time; the totals, chart and export are the desk&apos;s copy.
        </p>
      ) : null}
      <ActivitySummaryPanel summary={summary.data} stale={summary.isPlaceholderData} currency={state.currency} />
      <DataTable
        table={table}
        query={query}
        busy={busy}
        empty={
          activityListParams.isFiltered(state)
            ? "No activities match these filters."
            : "No activities in the desk's copy yet: the sweep fills it."
        }
        rowTestId={(r) => `activity-row-${r.id}`}
      />
      <CursorPagination {...pagination} />
    </div>
  );
}
