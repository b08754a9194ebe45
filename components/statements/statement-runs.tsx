"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import type { RowColumn } from "@/components/ui/rows-table";
import { runStateColumns, RunsTable } from "@/components/ui/runs-table";
import { useRunPages } from "@/components/ui/use-run-pages";
import { formatBytes, formatDateTime } from "@/lib/format";
import type { RunsPage } from "@/lib/schemas/runs";
import type { StatementRun } from "@/lib/schemas/statements";
import { requestStatements } from "@/server/actions/statements";
import { monthPeriod, PeriodPicker, periodProblem } from "./period-picker";

/** Under the live root `statement-runs`: a run's `statements` notice (asked, an account done, finished) reads it again. */
const RUNS_KEY = ["statement-runs"];

const COLUMNS: RowColumn<StatementRun>[] = [
  { head: "Run", numeric: true, cell: (r) => r.id },
  { head: "Period", className: "whitespace-nowrap tabular-nums", cell: (r) => `${r.from} to ${r.to}` },
  ...runStateColumns<StatementRun>(),
  {
    head: "Zip",
    className: "whitespace-nowrap",
    cell: (r) =>
      r.status === "done" ? (
        <a className="text-blue-700 hover:underline" href={`/api/statements/runs/${r.id}/zip`} download>
          Download zip{r.zipBytes === null ? "" : ` (${formatBytes(r.zipBytes)})`}
        </a>
      ) : (
        <span className="text-slate-400">—</span>
      ),
  },
  {
    head: "Asked",
    className: "whitespace-nowrap",
    cell: (r) => (
      <>
        {formatDateTime(r.requestedAt)}
        <span className="block text-xs text-slate-500">{r.requestedBy}</span>
      </>
    ),
  },
  { head: "Finished", className: "whitespace-nowrap", cell: (r) => (r.finishedAt ? formatDateTime(r.finishedAt) : "—") },
];

/** The bulk page's body: the period form ("Prepare zip") and the latest runs, live. */
export function StatementRuns({ initial }: { initial: RunsPage<StatementRun> }) {
  const [period, setPeriod] = useState(() => {
    const m = monthPeriod(1);
    return { from: m.from, to: m.to };
  });
  const client = useQueryClient();
  const history = useRunPages(RUNS_KEY, "/api/statements/runs", initial);
  const { run, busy, banner } = useAction();
  const invalid = !!periodProblem(period);
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
        <RunsTable testId="statement-runs" columns={COLUMNS} {...history} empty="No runs yet." />
      </Panel>
    </div>
  );
}
