import type { Tone } from "./badge";
import { Button } from "./button";
import { EnumBadge } from "./enum-badge";
import { RowsTable, StaleNotice, type RowColumn } from "./rows-table";
import { RunProgress } from "./run-progress";

/** A background run over every account (the statements' zip, a reconciliation), as its table shows it. */
interface AccountsRun {
  id: number;
  status: "queued" | "running" | "done" | "failed";
  done: number;
  total: number | null;
  lastError: string | null;
}

const STATUS_LABELS: Record<AccountsRun["status"], string> = { queued: "Queued", running: "Running", done: "Done", failed: "Failed" };
const STATUS_TONES: Record<AccountsRun["status"], Tone> = { queued: "slate", running: "blue", done: "green", failed: "red" };

/** Such a run's Status (its badge, the last error under it) and Progress (the bar, full once done, red once failed). */
export function runStateColumns<R extends AccountsRun>(): RowColumn<R>[] {
  return [
    {
      head: "Status",
      cell: (r) => (
        <>
          <EnumBadge value={r.status} labels={STATUS_LABELS} tones={STATUS_TONES} />
          {r.lastError ? <p className="mt-0.5 text-xs text-red-700">{r.lastError}</p> : null}
        </>
      ),
    },
    {
      head: "Progress",
      cell: (r) => <RunProgress id={r.id} done={r.done} total={r.total} finished={r.status === "done"} failed={r.status === "failed"} />,
    },
  ];
}

/**
 * The runs of a background job, newest first, live (`useRunPages`): a row a run (`data-run`, its id), the notice above
 * that the rows are the last answer when the last read failed (`stale`), and "Older runs" below while there are more.
 */
export function RunsTable<R extends { id: number }>({
  runs,
  columns,
  stale,
  older,
  empty,
  testId,
}: {
  runs: R[];
  columns: RowColumn<R>[];
  stale: boolean;
  older?: { loading: boolean; load(): void };
  empty: string;
  testId: string;
}) {
  return (
    <>
      <StaleNotice show={stale} />
      <RowsTable
        testId={testId}
        columns={columns}
        rows={runs}
        rowKey={(r) => String(r.id)}
        rowProps={(r) => ({ "data-run": String(r.id) })}
        empty={empty}
      />
      {older ? (
        <div className="mt-2">
          <Button variant="secondary" size="sm" onClick={older.load} disabled={older.loading}>
            {older.loading ? "Loading…" : "Older runs"}
          </Button>
        </div>
      ) : null}
    </>
  );
}
