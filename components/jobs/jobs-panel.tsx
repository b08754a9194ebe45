"use client";
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import type { Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel } from "@/components/ui/page";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { formatDateTime } from "@/lib/format";
import { JOB_STATE_LABELS, type JobStateName, type JobsOverview } from "@/lib/jobs";
import { retryFailedJob, runJob } from "@/server/actions/jobs";

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

type Queue = JobsOverview["queues"][number];
type Job = JobsOverview["jobs"][number];
const ACTIONS = <span className="sr-only">Actions</span>;

const QUEUE_COLUMNS: RowColumn<Queue>[] = [
  {
    head: "Job",
    cell: (q) => (
      <>
        <div className="font-medium text-slate-900">{q.label}</div>
        <div className="font-mono text-[11px] text-slate-500">{q.name}</div>
      </>
    ),
  },
  {
    head: "Schedule (UTC)",
    className: "font-mono text-xs",
    cell: (q) => q.schedule ?? <span className="font-sans text-slate-400">not scheduled</span>,
  },
  { head: "Policy", cell: (q) => q.policy },
  { head: "Retries", numeric: true, cell: (q) => q.retryLimit },
  { head: "Expires after", numeric: true, cell: (q) => duration(q.expireInSeconds * 1000) },
  ...COUNTS.map((c): RowColumn<Queue> => ({
    head: JOB_STATE_LABELS[c],
    numeric: true,
    cell: (q) => (
      <span className={q.counts[c] && c === "failed" ? "font-semibold text-red-700" : q.counts[c] ? "" : "text-slate-400"}>
        {q.counts[c]}
      </span>
    ),
  })),
];

const JOB_COLUMNS: RowColumn<Job>[] = [
  { head: "Job", className: "whitespace-nowrap", cell: (j) => j.label },
  { head: "State", cell: (j) => <EnumBadge value={j.state} tones={STATE_TONES} labels={JOB_STATE_LABELS} /> },
  {
    head: "Created",
    headClassName: "hidden 2xl:table-cell",
    className: "hidden whitespace-nowrap tabular-nums 2xl:table-cell",
    cell: (j) => when(j.createdAt),
  },
  { head: "Started", className: "whitespace-nowrap tabular-nums", cell: (j) => when(j.startedAt) },
  { head: "Finished", className: "whitespace-nowrap tabular-nums", cell: (j) => when(j.completedAt) },
  { head: "Duration", numeric: true, cell: (j) => duration(j.durationMs) },
  { head: "Retries", numeric: true, cell: (j) => `${j.retryCount} / ${j.retryLimit}` },
  { head: "Requested by", className: "max-w-48 truncate", cell: (j) => j.requestedBy ?? <span className="text-slate-400">automatic</span> },
  {
    head: "Error",
    className: "max-w-md truncate text-red-700",
    cell: (j) => <span title={j.error ?? undefined}>{j.error ?? ""}</span>,
  },
];

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
  const runNow = (q: Queue) => (
    <Button
      size="sm"
      variant="secondary"
      disabled={busy}
      aria-label={`Run ${q.label} now`}
      onClick={() =>
        run(() => runJob({ queue: q.name }), {
          success: (r) => (r.queued ? `${q.label}: sent; it starts when a worker is free.` : `${q.label}: one is already waiting.`),
          onSuccess: refetch,
        })
      }
    >
      Run now
    </Button>
  );
  const retry = (j: Job) => (
    <Button
      size="sm"
      variant="secondary"
      disabled={busy}
      onClick={() => run(() => retryFailedJob({ queue: j.queue, id: j.id }), { success: `${j.label}: retried.`, onSuccess: refetch })}
    >
      Retry
    </Button>
  );

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
      <Panel title="Queues">
        <RowsTable
          columns={[...QUEUE_COLUMNS, { head: ACTIONS, className: "text-right", cell: (q) => (q.runOnRequest ? runNow(q) : null) }]}
          rows={data.queues}
          rowKey={(q) => q.name}
          rowProps={(q) => ({ "data-queue": q.name })}
          empty="No queues yet: they are declared when the job system first starts."
          testId="job-queues"
        />
      </Panel>
      <Panel title="Recent jobs">
        <RowsTable
          columns={[...JOB_COLUMNS, { head: ACTIONS, className: "text-right", cell: (j) => (j.state === "failed" ? retry(j) : null) }]}
          rows={data.jobs}
          rowKey={(j) => j.id}
          rowProps={(j) => ({ "data-id": j.id, "data-job": j.queue, "data-state": j.state })}
          empty="No jobs in the last day."
          testId="job-runs"
        />
      </Panel>
    </div>
  );
}
