"use client";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import type { Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel, table } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { JOB_STATE_LABELS, type JobStateName, type JobsOverview } from "@/lib/jobs";
import { retryFailedJob } from "@/server/actions/jobs-retry";
import { runJob } from "@/server/actions/jobs-run";

const STATE_TONES: Record<JobStateName, Tone> = {
  created: "slate",
  retry: "amber",
  active: "blue",
  completed: "green",
  failed: "red",
  cancelled: "slate",
};
const COUNTS = ["created", "retry", "active", "completed", "failed"] as const;
const when = (iso: string | null) => (iso ? formatDateTime(iso) : "—");
const duration = (ms: number | null) => {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round((ms % 60_000) / 1000);
  return `${Math.floor(ms / 60_000)} min${s ? ` ${s} s` : ""}`;
};

/** The jobs page: queues with their counts and "Run now", and the latest jobs; refetched every few seconds while open. */
export function JobsPanel({ initial }: { initial: JobsOverview }) {
  const query = useQuery({
    queryKey: ["jobs"],
    queryFn: () => fetchJson<JobsOverview>("/api/jobs"),
    initialData: initial,
    refetchInterval: 3_000,
  });
  const data = query.data ?? initial;
  const { run, busy, banner } = useAction();
  const refetch = () => void query.refetch();

  return (
    <div className="space-y-4">
      <div className="flex items-center gap-3 text-sm text-slate-600">
        <span>Checked {when(data.checkedAt)}</span>
        {query.isError ? (
          <span role="alert" className="text-red-700">
            Could not refresh; showing the last answer.{" "}
            <button type="button" className="underline" onClick={refetch}>
              Retry
            </button>
          </span>
        ) : null}
      </div>
      <FormBanner banner={banner} />
      <DenseTable
        title="Queues"
        testId="job-queues"
        empty="No queues yet: they are declared when the job system first starts."
        head={[
          "Job",
          "Schedule (UTC)",
          "Policy",
          { label: "Retries", numeric: true },
          { label: "Expires after", numeric: true },
          ...COUNTS.map((c) => ({ label: JOB_STATE_LABELS[c], numeric: true })),
          ACTIONS,
        ]}
      >
        {data.queues.map((q) => (
          <tr key={q.name} data-queue={q.name}>
            <td className={table.td}>
              <div className="font-medium text-slate-900">{q.label}</div>
              <div className="font-mono text-[11px] text-slate-500">{q.name}</div>
            </td>
            <td className={`${table.td} font-mono text-xs`}>
              {q.schedule ?? <span className="font-sans text-slate-400">not scheduled</span>}
            </td>
            <td className={table.td}>{q.policy}</td>
            <td className={`${table.td} text-right tabular-nums`}>{q.retryLimit}</td>
            <td className={`${table.td} text-right tabular-nums`}>{duration(q.expireInSeconds * 1000)}</td>
            {COUNTS.map((c) => (
              <td
                key={c}
                className={`${table.td} text-right tabular-nums ${q.counts[c] && c === "failed" ? "font-semibold text-red-700" : q.counts[c] ? "" : "text-slate-400"}`}
              >
                {q.counts[c]}
              </td>
            ))}
            <td className={`${table.td} text-right`}>
              {q.runOnRequest ? (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={busy}
                  aria-label={`Run ${q.label} now`}
                  onClick={() =>
                    run(() => runJob({ queue: q.name }), {
                      success: (r) =>
                        r.queued ? `${q.label}: sent; it starts when a worker is free.` : `${q.label}: one is already waiting.`,
                      onSuccess: refetch,
                    })
                  }
                >
                  Run now
                </Button>
              ) : null}
            </td>
          </tr>
        ))}
      </DenseTable>
      <DenseTable
        title="Recent jobs"
        testId="job-runs"
        empty="No jobs in the last day."
        head={[
          "Job",
          "State",
          { label: "Created", className: "hidden 2xl:table-cell" },
          "Started",
          "Finished",
          { label: "Duration", numeric: true },
          { label: "Retries", numeric: true },
          "Requested by",
          "Error",
          ACTIONS,
        ]}
      >
        {data.jobs.map((j) => (
          <tr key={j.id} data-id={j.id} data-job={j.queue} data-state={j.state}>
            <td className={`${table.td} whitespace-nowrap`}>{j.label}</td>
            <td className={table.td}>
              <EnumBadge value={j.state} tones={STATE_TONES} labels={JOB_STATE_LABELS} />
            </td>
            <td className={`${table.td} hidden whitespace-nowrap tabular-nums 2xl:table-cell`}>{when(j.createdAt)}</td>
            <td className={`${table.td} whitespace-nowrap tabular-nums`}>{when(j.startedAt)}</td>
            <td className={`${table.td} whitespace-nowrap tabular-nums`}>{when(j.completedAt)}</td>
            <td className={`${table.td} text-right tabular-nums`}>{duration(j.durationMs)}</td>
            <td className={`${table.td} text-right tabular-nums`}>
              {j.retryCount} / {j.retryLimit}
            </td>
            <td className={`${table.td} max-w-48 truncate`}>{j.requestedBy ?? <span className="text-slate-400">automatic</span>}</td>
            <td className={`${table.td} max-w-md truncate text-red-700`} title={j.error ?? undefined}>
              {j.error ?? ""}
            </td>
            <td className={`${table.td} text-right`}>
              {j.state === "failed" ? (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={busy}
                  onClick={() =>
                    run(() => retryFailedJob({ queue: j.queue, id: j.id }), { success: `${j.label}: retried.`, onSuccess: refetch })
                  }
                >
                  Retry
                </Button>
              ) : null}
            </td>
          </tr>
        ))}
      </DenseTable>
    </div>
  );
}

/** A column heading: its text, or its text with right alignment for numbers, extra classes, or shown to screen readers only. */
type Heading = string | { label: string; numeric?: boolean; className?: string; srOnly?: boolean };
const ACTIONS: Heading = { label: "Actions", srOnly: true };

function HeadingCell({ heading }: { heading: Heading }) {
  const h = typeof heading === "string" ? { label: heading } : heading;
  return (
    <th className={[table.th, h.numeric ? "text-right" : "", h.className ?? ""].filter(Boolean).join(" ")}>
      {h.srOnly ? <span className="sr-only">{h.label}</span> : h.label}
    </th>
  );
}

/** A panel holding one dense table, with its empty row. */
function DenseTable({
  title,
  testId,
  empty,
  head,
  children,
}: {
  title: string;
  testId: string;
  empty: string;
  head: Heading[];
  children: ReactNode[];
}) {
  return (
    <Panel title={title}>
      <div className={table.wrap}>
        <table className={table.table} data-testid={testId}>
          <thead>
            <tr>
              {head.map((h) => (
                <HeadingCell key={typeof h === "string" ? h : h.label} heading={h} />
              ))}
            </tr>
          </thead>
          <tbody>
            {children.length === 0 ? (
              <tr>
                <td className={table.empty} colSpan={99}>
                  {empty}
                </td>
              </tr>
            ) : (
              children
            )}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
