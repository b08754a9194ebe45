"use client";
import { useQueryClient } from "@tanstack/react-query";
import Decimal from "decimal.js";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { runStateColumns, RunsTable } from "@/components/ui/runs-table";
import { formatDateTime } from "@/lib/format";
import { formatMoney } from "@/lib/money";
import type { OmnibusLine, ReconciliationRun } from "@/lib/schemas/reconciliation";
import type { RunsPage } from "@/lib/schemas/runs";
import { requestReconciliation } from "@/server/actions/reconciliation";
import { RUNS_KEY } from "./labels";
import { useRuns } from "./use-runs";

const money = (head: string, value: (l: OmnibusLine) => string): RowColumn<OmnibusLine> => ({
  head,
  numeric: true,
  cell: (l) => formatMoney(value(l), l.currency),
});

/** Per currency: the master's and the virtual accounts' cash in the books and upstream, and what does not add up. */
const OMNIBUS_COLUMNS: RowColumn<OmnibusLine>[] = [
  { head: "Currency", cell: (l) => l.currency },
  money("Master: books", (l) => l.masterDesk),
  money("Master: upstream", (l) => l.masterUpstream),
  money("Virtual accounts: books", (l) => l.virtualDesk),
  money("Virtual accounts: upstream", (l) => l.virtualUpstream),
  {
    head: "Difference",
    numeric: true,
    cell: (l) => {
      const diff = new Decimal(l.masterUpstream).plus(l.virtualUpstream).minus(l.masterDesk).minus(l.virtualDesk);
      return (
        <span className={diff.isZero() ? "text-slate-500" : "font-medium text-red-700"}>{formatMoney(diff.toFixed(), l.currency)}</span>
      );
    },
  },
];

/** The latest finished run's omnibus lines: per currency, the master and the virtual accounts, books beside upstream. */
function Omnibus({ run }: { run: ReconciliationRun }) {
  const s = run.summary!;
  return (
    <div className="mt-3 flex flex-col gap-2" data-testid="run-summary">
      <p className="text-sm text-slate-700">
        Run {run.id} compared {s.compared} of {s.accounts} accounts:{" "}
        {s.found === 0 ? "no break" : `${s.found} break${s.found === 1 ? "" : "s"}`}
        {s.opened ? ` (${s.opened} new)` : ""}; {s.open} open in all.
      </p>
      {s.notCompared.length ? (
        <ul className="text-xs text-amber-800" data-testid="not-compared">
          {s.notCompared.map((n) => (
            <li key={n.accountId}>
              {n.accountNumber ?? n.accountId} not compared: {n.reason}
            </li>
          ))}
        </ul>
      ) : null}
      <RowsTable columns={OMNIBUS_COLUMNS} rows={s.omnibus} rowKey={(l) => l.currency} testId="omnibus" />
    </div>
  );
}

const RUN_COLUMNS: RowColumn<ReconciliationRun>[] = [
  { head: "Run", numeric: true, cell: (r) => r.id },
  { head: "Started by", className: "text-xs", cell: (r) => (r.trigger === "schedule" ? "Schedule" : (r.requestedBy ?? "—")) },
  ...runStateColumns<ReconciliationRun>(),
  { head: "Breaks", numeric: true, cell: (r) => (r.summary ? r.summary.found : "—") },
  { head: "Asked", className: "whitespace-nowrap", cell: (r) => formatDateTime(r.requestedAt) },
  { head: "Finished", className: "whitespace-nowrap", cell: (r) => (r.finishedAt ? formatDateTime(r.finishedAt) : "—") },
];

/** Run now, the latest runs with their progress (live), and the last finished run's summary. */
export function RunsPanel({ initial, canRun }: { initial: RunsPage<ReconciliationRun>; canRun: boolean }) {
  const client = useQueryClient();
  const history = useRuns(initial);
  const { run, busy, banner } = useAction();
  const runs = history.runs;
  const open = runs.some((r) => r.status === "queued" || r.status === "running");
  const latest = runs.find((r) => r.status === "done" && r.summary);
  return (
    <Panel
      title="Runs"
      actions={
        canRun ? (
          <Button
            size="sm"
            disabled={busy || open}
            onClick={() =>
              void run(() => requestReconciliation({}), {
                success: (r) => `Run ${r.id} asked for: it compares every account now.`,
                onSuccess: () => client.invalidateQueries({ queryKey: RUNS_KEY }),
              })
            }
          >
            {busy ? "Asking…" : open ? "Run under way" : "Run now"}
          </Button>
        ) : null
      }
    >
      <FormBanner banner={banner} />
      <RunsTable
        testId="reconciliation-runs"
        columns={RUN_COLUMNS}
        {...history}
        empty="No runs yet: one runs after each market's close on weekdays, or now with Run now."
      />
      {latest ? <Omnibus run={latest} /> : null}
    </Panel>
  );
}
