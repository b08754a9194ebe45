"use client";
import { TotalsError, type FailedRead } from "@/components/ui/panel-state";
import { formatMoney } from "@/lib/money";
import { movementTypeLabel, type MovementTotals } from "@/lib/schemas/movement-list";

/**
 * The totals of the whole filter (every page): how many movements and how many completed; the completed ones'
 * amounts by type and currency (money in and money out apart; held, rejected or pending amounts moved nothing and
 * are not summed); what completed exchanges bought; position journals. A failed read says so in their place, with a
 * Retry (the rows below stay).
 */
export function MovementTotalsBar({
  totals,
  stale,
  failed,
}: {
  totals: MovementTotals | undefined;
  stale?: boolean;
  /** The read of the totals failed (`failedRead`). */
  failed?: FailedRead;
}) {
  if (failed) return <TotalsError failed={failed} testId="movement-totals-error" />;
  if (!totals) return null;
  const item = "flex items-baseline gap-1.5 rounded border border-slate-200 bg-white px-2 py-1";
  return (
    <div
      className={`flex flex-wrap items-center gap-2 text-xs ${stale ? "opacity-60" : ""}`}
      aria-label="Totals"
      aria-busy={stale}
      data-testid="movement-totals"
    >
      <span className="font-medium text-slate-600">
        {totals.count} {totals.count === 1 ? "movement" : "movements"}, {totals.completed} completed
        {totals.byType.length ? "; completed amounts:" : ""}
      </span>
      {totals.byType.map((t) => (
        <span key={`${t.kind}-${t.direction}-${t.currency}`} className={item} data-testid={`total-${t.direction ?? t.kind}-${t.currency}`}>
          <span className="text-slate-600">{movementTypeLabel(t.kind, t.direction)}</span>
          <span className="font-semibold tabular-nums">{formatMoney(t.amount, t.currency)}</span>
          <span className="text-slate-500">in {t.count}</span>
        </span>
      ))}
      {totals.exchangedTo.length ? <span className="text-slate-500">exchanges bought</span> : null}
      {totals.exchangedTo.map((t) => (
        <span key={t.currency} className={item} data-testid={`total-to-${t.currency}`}>
          <span className="font-semibold tabular-nums">{formatMoney(t.amount, t.currency)}</span>
          <span className="text-slate-500">in {t.count}</span>
        </span>
      ))}
      {totals.positionJournals ? (
        <span className={item}>
          <span className="font-semibold tabular-nums">{totals.positionJournals}</span>
          <span className="text-slate-500">position {totals.positionJournals === 1 ? "journal" : "journals"}</span>
        </span>
      ) : null}
    </div>
  );
}
