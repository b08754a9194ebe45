/**
 * A background run's progress: a bar and "n of m accounts" ("waiting to start" before its total is known), red when
 * the run failed. The statements and reconciliation runs' tables show it.
 */
export function RunProgress({
  id,
  done,
  total,
  finished,
  failed,
}: {
  id: number;
  done: number;
  total: number | null;
  finished: boolean;
  failed: boolean;
}) {
  const pct = total ? Math.round((done / total) * 100) : finished ? 100 : 0;
  return (
    <div className="flex items-center gap-2">
      <div
        role="progressbar"
        aria-label={`Run ${id}`}
        aria-valuemin={0}
        aria-valuemax={total || 1}
        aria-valuenow={done}
        className="h-2 w-24 overflow-hidden rounded bg-slate-200"
      >
        <div className={`h-full ${failed ? "bg-red-600" : "bg-blue-600"}`} style={{ width: `${pct}%` }} />
      </div>
      <span className="text-xs whitespace-nowrap text-slate-600 tabular-nums">
        {total === null ? "waiting to start" : `${done} of ${total} accounts`}
      </span>
    </div>
  );
}
