"use client";
import { useQueryClient } from "@tanstack/react-query";
import { DataTable } from "@/components/data-table/data-table";
import { ColumnsMenu, CursorPagination } from "@/components/data-table/data-table-controls";
import { useListing, useListQuery } from "@/components/data-table/use-data-table";
import { failedRead } from "@/components/ui/panel-state";
import { activityListParams, isLive, type ActivityListParams, type ActivityRow, type ActivitySummary } from "@/lib/schemas/activity-list";
import { activityColumns } from "./activity-columns";
import { ActivityExport } from "./activity-export";
import { ActivityFreshnessLine, useActivityFreshness } from "./activity-freshness";
import { ActivitySummaryPanel } from "./activity-summary";
import { ActivityToolbar } from "./activity-toolbar";
import { activityList, activityListSummary, activityUrls } from "./query-keys";

/**
 * The activities explorer: URL state → one page (the upstream's for one account, else the desk's copy), the
 * filter's totals and chart (the desk's copy), the copy's freshness, and the CSV export with its progress.
 */
export function ActivitiesExplorer() {
  const { list, state, query, table, pagination, busy } = useListing(activityListParams, activityList, {
    columns: activityColumns,
    getRowId: (r: ActivityRow) => r.uid,
  });
  const live = isLive(state);
  const queryClient = useQueryClient();
  const summary = useListQuery<ActivitySummary, ActivityListParams>(activityListSummary, state);
  const freshness = useActivityFreshness(state.account);
  // Rows never move under the reader: a copy newer than the one these sums were read from offers a Refresh.
  const stale = !live && !!freshness.data && !!summary.data && !summary.isPlaceholderData && freshness.data.asOf !== summary.data.asOf;
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
        readAt={freshness.dataUpdatedAt}
        stale={stale}
        account={state.account}
        onRefresh={() => void queryClient.invalidateQueries({ queryKey: ["activities"] })}
      />
      {live ? (
        <p className="text-xs text-slate-600" data-testid="activity-source">
          Rows are read live from the upstream, a page at a time; the totals, chart and export are the desk&apos;s copy.
        </p>
      ) : null}
      <ActivitySummaryPanel
        summary={summary.data}
        stale={summary.isPlaceholderData}
        failed={failedRead(summary)}
        currency={state.currency}
      />
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
