"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { Button } from "@/components/ui/button";
import { table as cls } from "@/components/ui/page";
import { PnL } from "@/components/ui/money";
import { DetailPanel } from "@/components/ui/panel-state";
import { formatDateTime } from "@/lib/format";
import { formatMoney } from "@/lib/money";
import type { ActivitiesPage } from "@/lib/schemas/account-data";
import { accountKeys, accountUrls } from "./query-keys";

/** Recent cash activities, newest first, 20 at a time ("Load more" follows the upstream cursor). */
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
            <div className={cls.wrap}>
              <table className={cls.table}>
                <thead>
                  <tr>
                    {["Time", "Type", "Detail", "Symbol"].map((h) => (
                      <th key={h} className={cls.th}>
                        {h}
                      </th>
                    ))}
                    <th className={`${cls.th} text-right`}>Quantity</th>
                    <th className={`${cls.th} text-right`}>Net amount</th>
                    <th className={cls.th}>Description</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((a) => (
                    <tr key={a.id}>
                      <td className={`${cls.td} text-xs whitespace-nowrap text-slate-600`}>
                        {a.biz_time ? formatDateTime(a.biz_time) : (a.trade_date ?? "—")}
                      </td>
                      <td className={`${cls.td} text-xs font-medium`}>{a.activity_type}</td>
                      <td className={`${cls.td} text-xs text-slate-600`}>{a.activity_sub_type ?? "—"}</td>
                      <td className={`${cls.td} font-mono text-xs`}>{a.symbol ?? ""}</td>
                      <td className={`${cls.td} num text-xs`}>{a.quantity ?? ""}</td>
                      <td className={`${cls.td} num`}>
                        <PnL value={a.net_amount}>{formatMoney(a.net_amount, a.currency)}</PnL>
                      </td>
                      <td className={`${cls.td} max-w-72 truncate text-xs text-slate-600`} title={a.description}>
                        {a.description ?? ""}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {query.hasNextPage ? (
              <div>
                <Button variant="secondary" size="sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                  {query.isFetchingNextPage ? "Loading…" : "Load more"}
                </Button>
              </div>
            ) : null}
          </div>
        );
      }}
    </DetailPanel>
  );
}
