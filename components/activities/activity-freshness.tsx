"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { ago, formatDateTime } from "@/lib/format";
import type { ActivityFreshness } from "@/lib/schemas/activity-list";
import { requestSweep } from "@/server/actions/activities";
import { activityKeys, activityUrls } from "./query-keys";

export function useActivityFreshness(account?: string) {
  return useQuery({
    queryKey: activityKeys.status(account),
    queryFn: ({ signal }) => fetchJson<ActivityFreshness>(activityUrls.status(account), signal),
    // The live "activities" notice refetches it; the interval keeps "… ago" and a quiet sweep's progress current.
    refetchInterval: (q) => (q.state.data?.running ? 2_000 : 15_000),
  });
}

/**
 * "As of": everything before that moment is in the desk's copy (for every account, or the one filtered on); the
 * sweep's progress while it runs; "Sweep now"; and, when the copy moved on since the rows were read, a Refresh
 * (rows never move under the reader by themselves).
 */
export function ActivityFreshnessLine({
  status,
  readAt,
  stale,
  onRefresh,
  account,
}: {
  status: ActivityFreshness | undefined;
  /**
   * When the status was read (the query's `dataUpdatedAt`, which the page's prefetch hands to the browser): "… ago"
   * is counted to it, not to the clock at render, so the server's HTML and the browser's first render say the same
   * (a clock read in each made them differ by a second or more: React's hydration error #418). Each read moves it on.
   */
  readAt: number;
  stale: boolean;
  onRefresh: () => void;
  account?: string;
}) {
  const { run, busy, banner } = useAction();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const ask = (input: { account?: string }, success: string) =>
    void run(() => requestSweep(input), {
      success,
      onSuccess: () => {
        setConfirming(false);
        return queryClient.invalidateQueries({ queryKey: ["activities-status"] });
      },
    });
  if (!status) return <p className="text-xs text-slate-500">Reading how fresh the desk&apos;s copy is…</p>;
  const r = status.running;
  const requested = !!status.requestedAt && (!r || Date.parse(status.requestedAt) > Date.parse(r.startedAt));
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs" data-testid="activity-freshness">
        <span className="font-medium text-slate-700">
          {status.asOf ? (
            <>
              Desk&apos;s copy as of{" "}
              <time dateTime={status.asOf} title={formatDateTime(status.asOf)}>
                {formatDateTime(status.asOf)}
              </time>{" "}
              <span className="font-normal text-slate-500">({ago(status.asOf, readAt)})</span>
            </>
          ) : status.accounts === 0 ? (
            "No account swept yet"
          ) : (
            `${status.swept} of ${status.accounts} accounts swept so far`
          )}
        </span>
        {r ? (
          <span className="flex items-center gap-2 text-slate-600" role="status">
            <progress
              className="h-1.5 w-28 accent-blue-700"
              aria-label="Sweep progress"
              max={r.total ?? undefined}
              value={r.total ? r.done : undefined}
            />
            Sweeping: {r.done}
            {r.total ? ` of ${r.total}` : ""} accounts, {r.fetched.toLocaleString("en-US")} activities fetched
          </span>
        ) : null}
        {status.lastError ? <span className="text-amber-800">Last sweep problem: {status.lastError}</span> : null}
        <button
          type="button"
          disabled={busy || requested}
          onClick={() => ask({}, "Sweep requested: the event service starts it within seconds.")}
          className="h-6 rounded border border-slate-300 bg-white px-2 hover:bg-slate-100 disabled:opacity-50"
        >
          {requested ? "Sweep requested" : "Sweep now"}
        </button>
        {account && !confirming ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => setConfirming(true)}
            className="h-6 rounded border border-slate-300 bg-white px-2 hover:bg-slate-100 disabled:opacity-50"
          >
            Read this account again…
          </button>
        ) : null}
        {account && confirming ? (
          <span
            className="flex items-center gap-2 rounded border border-amber-300 bg-amber-50 px-2 py-0.5 text-amber-900"
            role="group"
            aria-label="Confirm reading the account again"
          >
            Read all of account {account}&apos;s history again from the upstream (a call per 200 activities, within the sweep&apos;s
            budget)?
            <button
              type="button"
              disabled={busy}
              autoFocus
              onClick={() => ask({ account }, `Account ${account} will be read again from the start in the next round, which starts now.`)}
              className="h-6 rounded bg-amber-700 px-2 font-medium text-white hover:bg-amber-800 disabled:opacity-50"
            >
              Read again
            </button>
            <button type="button" onClick={() => setConfirming(false)} className="h-6 px-1 hover:underline">
              Cancel
            </button>
          </span>
        ) : null}
        {stale ? (
          <button
            type="button"
            onClick={onRefresh}
            className="h-6 rounded bg-blue-700 px-2 font-medium text-white hover:bg-blue-800"
            data-testid="activity-refresh"
          >
            Newer activities are in: Refresh
          </button>
        ) : null}
      </div>
      <FormBanner banner={banner} />
    </div>
  );
}
