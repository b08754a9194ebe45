"use client";
import { useQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel, table } from "@/components/ui/page";
import { REPORT_KIND_LABELS, type ReportKind, type ReportRun } from "@/lib/schemas/reports";
import { FORMAT_LABELS, RUN_STATUS_LABELS, RUN_STATUS_TONES, utcMinute } from "./labels";

/** Under the live root `report-runs`: a `reports` notice (run queued, done, failed, a mail sent) reads it again. */
const RUNS_KEY = ["report-runs"];
const HEADERS = ["Run", "Schedule", "Report", "Day (UTC)", "Slot", "Status", "Rows", "Mailed to"];

/** The latest runs, newest first, live. */
export function ReportRuns({ initial }: { initial: ReportRun[] }) {
  const query = useQuery({
    queryKey: RUNS_KEY,
    queryFn: ({ signal }) => fetchJson<{ runs: ReportRun[] }>("/api/reports/runs", signal),
    initialData: { runs: initial },
  });
  const runs = query.data.runs;
  return (
    <Panel title="Run history">
      {query.isError ? (
        <p role="alert" className="mb-2 text-sm text-red-700">
          Could not refresh; showing the last answer.
        </p>
      ) : null}
      <div className={table.wrap}>
        <table className={table.table} data-testid="report-runs">
          <thead>
            <tr>
              {HEADERS.map((h) => (
                <th key={h} className={`${table.th} ${h === "Rows" || h === "Run" ? "text-right" : ""}`}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {runs.length === 0 ? (
              <tr>
                <td colSpan={HEADERS.length} className={table.empty}>
                  No runs yet.
                </td>
              </tr>
            ) : (
              runs.map((r) => (
                <tr key={r.id} data-run={r.id}>
                  <td className={`${table.td} text-right tabular-nums`}>{r.id}</td>
                  <td className={`${table.td} min-w-36`}>{r.scheduleName}</td>
                  <td className={`${table.td} whitespace-nowrap`}>
                    {REPORT_KIND_LABELS[r.kind as ReportKind] ?? r.kind}
                    <span className="ml-1 text-xs text-slate-500">{FORMAT_LABELS[r.format] ?? r.format}</span>
                  </td>
                  <td className={`${table.td} whitespace-nowrap tabular-nums`}>{r.reportDay}</td>
                  <td className={`${table.td} whitespace-nowrap tabular-nums`}>
                    {utcMinute(r.slot)}
                    <span className="block text-xs text-slate-500">{r.trigger === "request" ? `Run now by ${r.requestedBy}` : "Scheduled"}</span>
                  </td>
                  <td className={table.td}>
                    <EnumBadge value={r.status} labels={RUN_STATUS_LABELS} tones={RUN_STATUS_TONES} />
                    {r.finishedAt ? (
                      <span className="block text-xs whitespace-nowrap text-slate-500 tabular-nums">{utcMinute(r.finishedAt)}</span>
                    ) : null}
                    {r.error ? <p className="mt-0.5 max-w-64 text-xs text-red-700">{r.error}</p> : null}
                  </td>
                  <td className={`${table.td} text-right tabular-nums`}>{r.rows ?? "—"}</td>
                  <td className={`${table.td} text-xs`}>
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
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
