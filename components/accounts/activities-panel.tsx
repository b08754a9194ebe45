"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { readOlder } from "@/components/live/read-again";
import { Button } from "@/components/ui/button";
import { PnL } from "@/components/ui/money";
import { DetailPanel, ReadError } from "@/components/ui/panel-state";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { formatDateTime } from "@/lib/format";
import { formatMoney } from "@/lib/money";
import type { ActivitiesPage, Activity } from "@/lib/schemas/account-data";
import { accountKeys, accountUrls } from "./query-keys";

const ACTIVITY_COLUMNS: RowColumn<Activity>[] = [
  {
    head: "Time",
    className: "text-xs whitespace-nowrap text-slate-600",
    cell: (a) => (a.biz_time ? formatDateTime(a.biz_time) : (a.trade_date ?? "—")),
  },
  { head: "Type", className: "text-xs font-medium", cell: (a) => a.activity_type },
  { head: "Detail", className: "text-xs text-slate-600", cell: (a) => a.activity_sub_type ?? "—" },
  { head: "Symbol", className: "font-mono text-xs", cell: (a) => a.symbol ?? "" },
  { head: "Quantity", numeric: true, className: "text-xs", cell: (a) => a.quantity ?? "" },
  { head: "Net amount", numeric: true, cell: (a) => <PnL value={a.net_amount}>{formatMoney(a.net_amount, a.currency)}</PnL> },
  {
    head: "Description",
    className: "max-w-72 truncate text-xs text-slate-600",
    cell: (a) => <span title={a.description}>{a.description ?? ""}</span>,
  },
];

/**
 * Recent cash activities, newest first, 20 at a time ("Load more" follows the upstream cursor). A "Load more" that
 * failed keeps the rows read so far and says so beside the button; its Retry reads that next page alone.
 */
export function ActivitiesPanel({ accountId }: { accountId: string }) {
  const query = useInfiniteQuery({
    queryKey: accountKeys.activities(accountId),
    queryFn: ({ pageParam, signal }) => fetchJson<ActivitiesPage>(accountUrls.activities(accountId, pageParam), signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  return (
    <DetailPanel title="Recent activities" testId="activities-panel" query={query}>
      {(data) => {
        const items = data.pages.flatMap((p) => p.items);
        if (items.length === 0) return <p className="text-sm text-slate-500">No activities yet.</p>;
        return (
          <div className="flex flex-col gap-2">
            <RowsTable columns={ACTIVITY_COLUMNS} rows={items} rowKey={(a) => a.id} />
            {query.hasNextPage ? (
              <div className="flex flex-wrap items-center gap-2">
                <Button variant="secondary" size="sm" onClick={() => void readOlder(query)} disabled={query.isFetchingNextPage}>
                  {query.isFetchingNextPage ? "Loading…" : "Load more"}
                </Button>
                {query.isFetchNextPageError && !query.isFetchingNextPage ? (
                  <ReadError
                    what="Older activities could not be read."
                    error={query.error}
                    onRetry={() => void readOlder(query)}
                    compact
                    testId="activities-more-error"
                  />
                ) : null}
              </div>
            ) : null}
          </div>
        );
      }}
    </DetailPanel>
  );
}
