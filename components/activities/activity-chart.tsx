"use client";
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";
import { useEffect, useMemo, useRef } from "react";
import { formatMoney } from "@/lib/money";
import { activityTypeLabel, type ActivityDayPoint } from "@/lib/schemas/activity-list";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

/** A colour per type, stable across renders; money in greens, out reds, the rest distinct. */
const COLOURS: Record<string, string> = {
  DEPOSIT: "#15803d",
  WITHDRAW: "#b91c1c",
  TRADE: "#1d4ed8",
  EXECUTION: "#3b82f6",
  DIVIDENDS: "#4d7c0f",
  INTERESTS: "#65a30d",
  FEES: "#b45309",
  TAX: "#d97706",
  JOURNAL: "#64748b",
  TRANSFER: "#0f766e",
  ADJUSTMENT: "#a16207",
  ALLOCATION: "#475569",
  OPTION_EA: "#7c3aed",
  REORGANIZATION: "#334155",
  SUBSCRIBE: "#0e7490",
  OTHER: "#94a3b8",
};
const colourOf = (type: string) => COLOURS[type] ?? "#a855f7";
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });

function days(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/**
 * Net amount by type per day in one currency (Chart.js, stacked bars: credits above the axis, debits below). The
 * same figures are in the totals beside it; the canvas carries a summary for screen readers.
 */
export default function ActivityChart({
  points,
  currency,
  from,
  to,
}: {
  points: ActivityDayPoint[];
  currency: string;
  from: string;
  to: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const { labels, datasets } = useMemo(() => {
    const labels = days(from, to);
    const index = new Map(labels.map((d, i) => [d, i]));
    const byType = new Map<string, number[]>();
    for (const p of points) {
      if (p.currency !== currency) continue;
      const series =
        byType.get(p.type) ??
        byType
          .set(
            p.type,
            labels.map(() => 0),
          )
          .get(p.type)!;
      const i = index.get(p.day);
      if (i !== undefined) series[i] += Number(p.net);
    }
    const datasets = [...byType.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, data]) => ({
        label: activityTypeLabel(type),
        data,
        backgroundColor: colourOf(type),
        stack: "net",
        maxBarThickness: 28,
      }));
    return { labels, datasets };
  }, [points, currency, from, to]);

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: "bar",
      data: { labels: labels.map((d) => d.slice(5)), datasets },
      options: {
        animation: false,
        maintainAspectRatio: false,
        interaction: { mode: "index", intersect: false },
        scales: {
          x: { stacked: true, grid: { display: false }, ticks: { font: { size: 10 }, maxRotation: 0, autoSkip: true } },
          y: {
            stacked: true,
            title: { display: true, text: currency, font: { size: 10 } },
            ticks: { font: { size: 10 }, callback: (v) => compact.format(Number(v)) },
          },
        },
        plugins: {
          legend: { position: "right", labels: { boxWidth: 10, font: { size: 11 } } },
          tooltip: {
            callbacks: {
              title: (items) => labels[items[0]?.dataIndex ?? 0],
              label: (item) => (item.raw ? `${item.dataset.label}: ${formatMoney(String(item.raw), currency)}` : ""),
            },
            filter: (item) => item.raw !== 0,
          },
        },
      },
    });
    return () => chart.destroy();
  }, [labels, datasets, currency]);

  const summary = datasets.length
    ? `Net amount in ${currency} by type per day from ${from} to ${to}: ${datasets.map((d) => d.label).join(", ")}.`
    : `No activity in ${currency} from ${from} to ${to}.`;
  return (
    <div className="relative h-56 w-full" data-testid="activity-chart" data-series={datasets.length}>
      <canvas ref={canvas} role="img" aria-label={summary} />
    </div>
  );
}
