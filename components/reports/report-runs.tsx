"use client";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel } from "@/components/ui/page";
import type { RowColumn } from "@/components/ui/rows-table";
import { RunsTable } from "@/components/ui/runs-table";
import { useRunPages } from "@/components/ui/use-run-pages";
import { REPORT_KIND_LABELS, type ReportKind, type ReportRun } from "@/lib/schemas/reports";
import type { RunsPage } from "@/lib/schemas/runs";
import { FORMAT_LABELS, RUN_STATUS_LABELS, RUN_STATUS_TONES, utcMinute } from "./labels";

/** Under the live root `report-runs`: a `reports` notice (run queued, done, failed, a mail sent) reads it again. */
const RUNS_KEY = ["report-runs"];
const COLUMNS: RowColumn<ReportRun>[] = [
  { head: "Run", numeric: true, cell: (r) => r.id },
  { head: "Schedule", className: "min-w-36", cell: (r) => r.scheduleName },
  {
    head: "Report",
    className: "whitespace-nowrap",
    cell: (r) => (
      <>
        {REPORT_KIND_LABELS[r.kind as ReportKind] ?? r.kind}
        <span className="ml-1 text-xs text-slate-500">{FORMAT_LABELS[r.format] ?? r.format}</span>
      </>
    ),
  },
  { head: "Day (UTC)", className: "whitespace-nowrap tabular-nums", cell: (r) => r.reportDay },
  {
    head: "Slot",
    className: "tabular-nums",
    cell: (r) => (
      <>
        <span className="whitespace-nowrap">{utcMinute(r.slot)}</span>
        <span className="block text-xs text-slate-500">{r.trigger === "request" ? `Run now by ${r.requestedBy}` : "Scheduled"}</span>
      </>
    ),
  },
  {
    head: "Status",
    cell: (r) => (
      <>
        <EnumBadge value={r.status} labels={RUN_STATUS_LABELS} tones={RUN_STATUS_TONES} />
        {r.finishedAt ? <span className="block text-xs whitespace-nowrap text-slate-500 tabular-nums">{utcMinute(r.finishedAt)}</span> : null}
        {r.error ? <p className="mt-0.5 max-w-64 text-xs text-red-700">{r.error}</p> : null}
      </>
    ),
  },
  { head: "Rows", numeric: true, cell: (r) => r.rows ?? "—" },
  {
    head: "File",
    className: "whitespace-nowrap",
    // The file its mails carried, kept with the run: there whether or not every mail went out.
    cell: (r) =>
      r.fileName ? (
        <a
          className="text-blue-700 hover:underline"
          href={`/api/reports/runs/${r.id}/file`}
          download
          title={r.fileName}
          aria-label={`Download ${r.fileName}`}
        >
          Download
        </a>
      ) : (
        <span className="text-slate-400">—</span>
      ),
  },
  {
    head: "Mailed to",
    className: "text-xs",
    cell: (r) => (
      <>
        {r.recipients.length
          ? r.recipients.map((e) => (
              <span key={e} className="block whitespace-nowrap">
                {e}
              </span>
            ))
          : "—"}
        {r.recipients.length && r.status === "mailing" ? (
          <span className="block text-slate-500">
            {r.mailsSent} of {r.recipients.length} sent
          </span>
        ) : null}
      </>
    ),
  },
];

/** The runs, newest first, live, a page at a time ("Older runs": a run's file stays downloadable however old). */
export function ReportRuns({ initial }: { initial: RunsPage<ReportRun> }) {
  const history = useRunPages(RUNS_KEY, "/api/reports/runs", initial);
  return (
    <Panel title="Run history">
      <RunsTable testId="report-runs" columns={COLUMNS} {...history} empty="No runs yet." />
    </Panel>
  );
}
