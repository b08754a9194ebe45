"use client";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { fetchJson, FetchError } from "@/components/data-table/fetch-json";
import { Button } from "@/components/ui/button";
import { formatDateTime, formatDuration } from "@/lib/format";
import type { IncidentView, ModuleState, ModuleStatusView, StatusPageData } from "@/lib/status";
import { useReadAt } from "@/components/live/read-at";

/** What each state looks like: a word, its dot and its badge colours. */
const STATE_LOOK: Record<ModuleState, { label: string; dot: string; badge: string }> = {
  operational: { label: "Operational", dot: "bg-emerald-500", badge: "bg-emerald-50 text-emerald-800 ring-emerald-600/30" },
  degraded: { label: "Degraded", dot: "bg-amber-500", badge: "bg-amber-50 text-amber-900 ring-amber-600/30" },
  outage: { label: "Outage", dot: "bg-red-600", badge: "bg-red-50 text-red-800 ring-red-600/30" },
  unknown: { label: "Unknown", dot: "bg-slate-400", badge: "bg-slate-100 text-slate-700 ring-slate-500/30" },
};

/** A day's bar: full green only at 100 %, then lighter, amber and red as the day's operational share falls. */
function barColour(percent: number | null): string {
  if (percent === null) return "bg-slate-200";
  if (percent >= 100) return "bg-emerald-500";
  if (percent >= 99) return "bg-emerald-300";
  if (percent >= 95) return "bg-amber-400";
  return "bg-red-500";
}

function StateBadge({ state }: { state: ModuleState }) {
  const look = STATE_LOOK[state];
  return (
    <span className={`inline-flex items-center gap-1.5 rounded px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${look.badge}`}>
      <span aria-hidden className={`size-2 rounded-full ${look.dot}`} />
      {look.label}
    </span>
  );
}

function UptimeBars({ module }: { module: ModuleStatusView }) {
  const { percent, observedMs } = module.overall;
  return (
    <div>
      <div className="flex h-7 items-stretch gap-px" role="img" aria-label={`${module.label}: daily uptime over 90 days`}>
        {module.uptime.map((d) => (
          <div
            key={d.day}
            className={`min-w-0 flex-1 rounded-[1px] ${barColour(d.percent)} hover:opacity-70`}
            title={`${d.day}: ${d.percent === null ? "no data" : `${d.percent}% operational`}`}
            data-testid="uptime-bar"
          />
        ))}
      </div>
      <div className="mt-1 flex justify-between text-[11px] text-slate-500">
        <span>90 days ago</span>
        <span>{percent === null ? "no data yet" : `${percent.toFixed(2)}% uptime over ${formatDuration(observedMs)} observed`}</span>
        <span>Today</span>
      </div>
    </div>
  );
}

function Incidents({ incidents, now }: { incidents: IncidentView[]; now: number }) {
  if (incidents.length === 0) return <p className="text-xs text-slate-500">No incidents in 90 days.</p>;
  return (
    <ul className="space-y-1.5" aria-label="Incidents">
      {incidents.map((i) => {
        const end = i.endedAt ? Date.parse(i.endedAt) : now;
        return (
          <li key={i.id} className="text-xs text-slate-700" data-testid="incident">
            <span className={`font-semibold ${i.state === "outage" ? "text-red-700" : "text-amber-800"}`}>
              {i.state === "outage" ? "Outage" : "Degraded"}
            </span>{" "}
            <span className="tabular-nums">
              {formatDateTime(i.startedAt)} – {i.endedAt ? formatDateTime(i.endedAt) : "ongoing"} (
              {formatDuration(end - Date.parse(i.startedAt))})
            </span>
            {i.escalatedAt ? <span className="text-slate-500"> · degraded until {formatDateTime(i.escalatedAt)}</span> : null}
            {i.evidence ? <span className="block text-slate-500">{i.evidence}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}

function ModuleRow({ module, now }: { module: ModuleStatusView; now: number }) {
  return (
    <li className="px-4 py-3" data-testid={`status-module-${module.module}`} data-state={module.state}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">{module.label}</h3>
        <div className="flex items-center gap-2 text-xs text-slate-500">
          {module.since ? (
            <span title={formatDateTime(module.since)}>since {formatDuration(now - Date.parse(module.since))} ago</span>
          ) : null}
          <StateBadge state={module.state} />
        </div>
      </div>
      {module.evidence ? <p className="mt-0.5 text-xs text-slate-500">Evidence: {module.evidence}</p> : null}
      <div className="mt-2">
        <UptimeBars module={module} />
      </div>
      {module.incidents ? (
        <div className="mt-2">
          <Incidents incidents={module.incidents} now={now} />
        </div>
      ) : null}
    </li>
  );
}

function Summary({ data }: { data: StatusPageData }) {
  const counts = data.modules.reduce<Record<ModuleState, number>>((a, m) => ((a[m.state] += 1), a), {
    operational: 0,
    degraded: 0,
    outage: 0,
    unknown: 0,
  });
  const worst: ModuleState = counts.outage
    ? "outage"
    : counts.degraded
      ? "degraded"
      : counts.unknown === data.modules.length
        ? "unknown"
        : "operational";
  const headline = {
    outage: `${counts.outage} module${counts.outage === 1 ? "" : "s"} in outage`,
    degraded: `${counts.degraded} module${counts.degraded === 1 ? "" : "s"} degraded`,
    unknown: "No evidence yet",
    operational: "All modules operational",
  }[worst];
  return (
    <section className="rounded border border-slate-200 bg-white p-4" aria-label="Summary" data-testid="status-summary">
      <div className="flex items-center gap-2">
        <span aria-hidden className={`size-3 rounded-full ${STATE_LOOK[worst].dot}`} />
        <p className="text-base font-semibold text-slate-900">{headline}</p>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-y-1 text-sm">
        {(Object.keys(STATE_LOOK) as ModuleState[]).map((s) => (
          <div key={s} className="contents">
            <dt className="flex items-center gap-1.5 text-slate-600">
              <span aria-hidden className={`size-2 rounded-full ${STATE_LOOK[s].dot}`} />
              {STATE_LOOK[s].label}
            </dt>
            <dd className="text-right text-slate-900 tabular-nums">{counts[s]}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-500">
        {data.evaluatedAt
          ? `Evaluated ${formatDateTime(data.evaluatedAt)}`
          : "Not evaluated yet: the states appear after the first evaluation."}
      </p>
      <div className="mt-3 border-t border-slate-100 pt-3 text-[11px] text-slate-500">
        <p className="mb-1 font-medium text-slate-600">Daily bars</p>
        <ul className="space-y-0.5">
          {[
            [100, "100% operational"],
            [99.5, "99–100%"],
            [97, "95–99%"],
            [50, "below 95%"],
            [null, "no data"],
          ].map(([p, text]) => (
            <li key={String(text)} className="flex items-center gap-1.5">
              <span aria-hidden className={`inline-block h-3 w-1.5 rounded-[1px] ${barColour(p as number | null)}`} />
              {text}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/**
 * The status page's body: every module (state, since when, evidence, 90 daily bars, incidents when detailed), read
 * again on each `status` notice (signed-in staff) and on a short interval. `aside` fills the right-hand column under
 * the summary (the subscription form's place).
 */
export function StatusBoard({ initial, live, aside }: { initial: StatusPageData; live: boolean; aside?: ReactNode }) {
  const readAt = useReadAt();
  const query = useQuery({
    queryKey: ["status"],
    queryFn: ({ signal }) => fetchJson<StatusPageData>("/api/status", signal),
    initialData: initial,
    initialDataUpdatedAt: readAt,
    refetchInterval: live ? 30_000 : 15_000,
  });
  const data = query.data;
  const now = Date.parse(data.checkedAt);
  const error = query.isError ? (query.error as FetchError | Error) : undefined;
  return (
    <div className="grid items-start gap-4 lg:grid-cols-[minmax(0,1fr)_18rem]" data-testid="status-board">
      <div className="space-y-3">
        {error ? (
          <div
            role="alert"
            className="flex items-center justify-between gap-2 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            <span>
              The status could not be read again ({error.message}); showing {formatDateTime(data.checkedAt)}.
            </span>
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
              Retry
            </Button>
          </div>
        ) : null}
        <ul className="divide-y divide-slate-100 rounded border border-slate-200 bg-white" aria-label="Modules">
          {data.modules.map((m) => (
            <ModuleRow key={m.module} module={m} now={now} />
          ))}
        </ul>
      </div>
      <aside className="space-y-3 lg:sticky lg:top-4" data-testid="status-aside">
        <Summary data={data} />
        {aside}
      </aside>
    </div>
  );
}
