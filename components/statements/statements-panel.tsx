"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { Panel } from "@/components/ui/page";
import type { ExecutionDay } from "@/lib/schemas/statements";
import { monthPeriod, PeriodPicker, periodProblem } from "./period-picker";

const LINK =
  "inline-flex h-8 items-center rounded px-3 text-sm font-medium whitespace-nowrap aria-disabled:pointer-events-none aria-disabled:opacity-50";
const PRIMARY = `${LINK} bg-blue-700 text-white hover:bg-blue-800`;
const SECONDARY = `${LINK} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;

/**
 * The account page's statements: a period (this month by default) downloaded as PDF or CSV, and a trade confirmation
 * for each day the account has executions in the desk's books. Downloads are plain links to guarded, audited routes.
 */
export function StatementsPanel({ accountId }: { accountId: string }) {
  const [period, setPeriod] = useState(() => {
    const m = monthPeriod(0);
    return { from: m.from, to: m.to };
  });
  const base = `/api/accounts/${encodeURIComponent(accountId)}`;
  const query = `from=${encodeURIComponent(period.from)}&to=${encodeURIComponent(period.to)}`;
  const invalid = !!periodProblem(period);
  const days = useQuery({
    queryKey: ["statements", "confirmations", accountId],
    queryFn: ({ signal }) => fetchJson<{ days: ExecutionDay[] }>(`${base}/confirmations`, signal),
  });
  return (
    <Panel title="Statements">
      <div className="flex flex-col gap-4" data-testid="statements-panel">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <PeriodPicker idPrefix="statement" value={period} onChange={setPeriod} />
          <div className="flex gap-2 pt-4">
            <a className={PRIMARY} href={invalid ? undefined : `${base}/statement/pdf?${query}`} aria-disabled={invalid} download>
              Statement PDF
            </a>
            <a className={SECONDARY} href={invalid ? undefined : `${base}/statement/csv?${query}`} aria-disabled={invalid} download>
              Statement CSV
            </a>
          </div>
        </div>
        <div>
          <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Trade confirmations</h3>
          {days.isPending ? (
            <p className="text-sm text-slate-500">Loading…</p>
          ) : days.isError ? (
            <p className="text-sm text-red-700" role="alert">
              {days.error.message}{" "}
              <button type="button" className="text-blue-700 underline" onClick={() => void days.refetch()}>
                Retry
              </button>
            </p>
          ) : days.data.days.length === 0 ? (
            <p className="text-sm text-slate-500">No executions in the desk&apos;s books for this account.</p>
          ) : (
            <ul className="flex flex-wrap gap-2" aria-label="Trade confirmations">
              {days.data.days.map((d) => (
                <li key={d.date} className="flex items-center gap-2 rounded border border-slate-200 px-2 py-1 text-sm">
                  <span className="tabular-nums">{d.date}</span>
                  <span className="text-xs text-slate-500">
                    {d.executions} execution{d.executions === 1 ? "" : "s"}
                  </span>
                  <a className="text-blue-700 hover:underline" href={`${base}/confirmations/${d.date}/pdf`} download>
                    PDF
                  </a>
                  <a className="text-blue-700 hover:underline" href={`${base}/confirmations/${d.date}/csv`} download>
                    CSV
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </Panel>
  );
}
