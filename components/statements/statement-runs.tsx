"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import type { Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel, table } from "@/components/ui/page";
import { RunProgress } from "@/components/ui/run-progress";
import { formatDateTime } from "@/lib/format";
import type { StatementRun } from "@/lib/schemas/statements";
import { requestStatements } from "@/server/actions/statements-run";
import { monthPeriod, PeriodPicker, periodProblem } from "./period-picker";

/** Under the live root `statement-runs`: a run's `statements` notice (asked, an account done, finished) reads it again. */
const RUNS_KEY = ["statement-runs"];
const STATUS_LABELS: Record<StatementRun["status"], string> = { queued: "Queued", running: "Running", done: "Done", failed: "Failed" };
const STATUS_TONES: Record<StatementRun["status"], Tone> = { queued: "slate", running: "blue", done: "green", failed: "red" };

const size = (bytes: number | null) =>
  bytes === null ? "" : bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1048576).toFixed(1)} MB`;

/** The bulk page's body: the period form ("Prepare zip") and the latest runs, live. */
export function StatementRuns({ initial }: { initial: StatementRun[] }) {
  const [period, setPeriod] = useState(() => {
    const m = monthPeriod(1);
    return { from: m.from, to: m.to };
  });
  const client = useQueryClient();
  const query = useQuery({
    queryKey: RUNS_KEY,
    queryFn: ({ signal }) => fetchJson<{ runs: StatementRun[] }>("/api/statements/runs", signal),
    initialData: { runs: initial },
  });
  const { run, busy, banner } = useAction();
  const invalid = !!periodProblem(period);
  const runs = query.data.runs;
  return (
    <div className="flex flex-col gap-4">
      <Panel title="New zip of every account's statement">
        <form
          className="flex flex-wrap items-start justify-between gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            void run(() => requestStatements(period), {
              success: (r) => `Run ${r.id} asked for: statements of ${r.from} to ${r.to}.`,
              onSuccess: () => client.invalidateQueries({ queryKey: RUNS_KEY }),
            });
          }}
        >
          <PeriodPicker idPrefix="run" value={period} onChange={setPeriod} />
          <div className="pt-4">
            <Button type="submit" disabled={busy || invalid}>
              {busy ? "Asking…" : "Prepare zip"}
            </Button>
          </div>
        </form>
        <div className="mt-2">
          <FormBanner banner={banner} />
        </div>
      </Panel>
      <Panel title="Runs">
        {query.isError ? (
          <p role="alert" className="mb-2 text-sm text-red-700">
            Could not refresh; showing the last answer.
          </p>
        ) : null}
        <div className={table.wrap}>
          <table className={table.table} data-testid="statement-runs">
            <thead>
              <tr>
                {["Run", "Period", "Status", "Progress", "Zip", "Asked", "Finished"].map((h) => (
                  <th key={h} className={table.th}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {runs.length === 0 ? (
                <tr>
                  <td colSpan={7} className={table.empty}>
                    No runs yet.
                  </td>
                </tr>
              ) : (
                runs.map((r) => (
                  <tr key={r.id} data-run={r.id}>
                    <td className={`${table.td} tabular-nums`}>{r.id}</td>
                    <td className={`${table.td} whitespace-nowrap tabular-nums`}>
                      {r.from} to {r.to}
                    </td>
                    <td className={table.td}>
                      <EnumBadge value={r.status} labels={STATUS_LABELS} tones={STATUS_TONES} />
                      {r.lastError ? <p className="mt-0.5 text-xs text-red-700">{r.lastError}</p> : null}
                    </td>
                    <td className={table.td}>
                      <RunProgress id={r.id} done={r.done} total={r.total} finished={r.status === "done"} failed={r.status === "failed"} />
                    </td>
                    <td className={`${table.td} whitespace-nowrap`}>
                      {r.status === "done" ? (
                        <a className="text-blue-700 hover:underline" href={`/api/statements/runs/${r.id}/zip`} download>
                          Download zip{r.zipBytes === null ? "" : ` (${size(r.zipBytes)})`}
                        </a>
                      ) : (
                        <span className="text-slate-400">—</span>
                      )}
                    </td>
                    <td className={`${table.td} whitespace-nowrap`}>
                      {formatDateTime(r.requestedAt)}
                      <span className="block text-xs text-slate-500">{r.requestedBy}</span>
                    </td>
                    <td className={`${table.td} whitespace-nowrap`}>{r.finishedAt ? formatDateTime(r.finishedAt) : "—"}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </Panel>
    </div>
  );
}
