"use client";
import dynamic from "next/dynamic";
import { useState } from "react";
import { TotalsError, type FailedRead } from "@/components/ui/panel-state";
import { formatMoney } from "@/lib/money";
import type { ActivitySummary } from "@/lib/schemas/activity-list";

// Chart.js is loaded with the chart, not with the page.
const ActivityChart = dynamic(() => import("./activity-chart"), {
  ssr: false,
  loading: () => <div className="h-56 w-full animate-pulse rounded bg-slate-100" aria-label="Loading the chart" />,
});

const item = "flex items-baseline gap-1.5 rounded border border-slate-200 bg-white px-2 py-1";

/**
 * The whole filter's totals by currency (net, money in, money out, count) and the chart of net amount by type per
 * day in one currency (the filter's, else the one with the most activities). A failed read says so in their place,
 * with a Retry (the rows below stay).
 */
export function ActivitySummaryPanel({
  summary,
  stale,
  failed,
  currency: fixed,
}: {
  summary: ActivitySummary | undefined;
  stale?: boolean;
  /** The read of the totals failed (`failedRead`). */
  failed?: FailedRead;
  currency?: string;
}) {
  const [picked, setPicked] = useState<string>();
  if (failed) return <TotalsError failed={failed} testId="activity-totals-error" />;
  if (!summary) return <div className="h-8 animate-pulse rounded bg-slate-100" aria-label="Loading totals" />;
  const busiest = [...summary.byCurrency].sort((a, b) => b.count - a.count)[0]?.currency;
  const currency = fixed ?? (picked && summary.byCurrency.some((t) => t.currency === picked) ? picked : busiest);
  return (
    <section className={`flex flex-col gap-2 ${stale ? "opacity-60" : ""}`} aria-busy={stale} aria-label="Totals and chart">
      <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="activity-totals">
        <span className="font-medium text-slate-600">
          {summary.count.toLocaleString("en-US")} {summary.count === 1 ? "activity" : "activities"}
          {summary.byCurrency.length ? ", net by currency:" : ""}
        </span>
        {summary.byCurrency.map((t) => (
          <span key={t.currency} className={item} data-testid={`activity-total-${t.currency}`} data-net={t.net} data-count={t.count}>
            <span className="font-semibold tabular-nums">{formatMoney(t.net, t.currency)}</span>
            <span className="text-slate-500 tabular-nums">
              in {t.count.toLocaleString("en-US")} · +{formatMoney(t.credits, t.currency)} / {formatMoney(t.debits, t.currency)}
            </span>
          </span>
        ))}
      </div>
      {currency ? (
        <div className="rounded border border-slate-200 bg-white p-2">
          <div className="mb-1 flex items-center gap-2 text-xs text-slate-600">
            <span className="font-medium text-slate-700">Net amount by type per day</span>
            <span>
              {summary.chartFrom} – {summary.chartTo} (UTC)
            </span>
            {!fixed && summary.byCurrency.length > 1 ? (
              <label className="ml-auto flex items-center gap-1">
                Currency
                <select
                  value={currency}
                  onChange={(e) => setPicked(e.target.value)}
                  className="h-6 rounded border border-slate-300 bg-white px-1 text-xs"
                >
                  {summary.byCurrency.map((t) => (
                    <option key={t.currency}>{t.currency}</option>
                  ))}
                </select>
              </label>
            ) : (
              <span className="ml-auto">{currency}</span>
            )}
          </div>
          <ActivityChart points={summary.chart} currency={currency} from={summary.chartFrom} to={summary.chartTo} />
        </div>
      ) : null}
    </section>
  );
}
