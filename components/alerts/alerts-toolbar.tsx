"use client";
import type { ReactNode } from "react";
import type { ListStateApi } from "@/components/data-table/use-data-table";
import {
  ALERT_AGE_LABELS,
  ALERT_AGES,
  ALERT_STATUS_LABELS,
  ALERT_STATUSES,
  alertFilterSchema,
  alertListParams,
  type AlertListParams,
  type SurveillanceRule,
} from "@/lib/schemas/surveillance";

const select = "h-8 rounded border border-slate-300 bg-white px-2 text-sm font-normal";
const label = "flex flex-col gap-1 text-xs font-medium text-slate-700";

/** The queue's filters (rule, status, age), applied as they change. */
export function AlertsToolbar({
  list,
  rules,
  columns,
}: {
  list: ListStateApi<AlertListParams>;
  rules: Pick<SurveillanceRule, "id" | "name">[];
  columns: ReactNode;
}) {
  const { state, setFilters } = list;
  const set = (name: string, value: string) =>
    setFilters(alertFilterSchema.parse({ ...alertListParams.filters(state), [name]: value || undefined }));
  return (
    <div className="flex flex-wrap items-end gap-2 text-sm" role="search">
      <label className={label}>
        Rule
        <select aria-label="Rule" value={state.rule ?? ""} onChange={(e) => set("rule", e.target.value)} className={`${select} w-72`}>
          <option value="">Any</option>
          {rules.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Status
        <select aria-label="Status" value={state.status ?? ""} onChange={(e) => set("status", e.target.value)} className={`${select} w-32`}>
          <option value="">Any</option>
          {ALERT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ALERT_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Raised
        <select aria-label="Raised" value={state.age ?? ""} onChange={(e) => set("age", e.target.value)} className={`${select} w-44`}>
          <option value="">Any time</option>
          {ALERT_AGES.map((a) => (
            <option key={a} value={a}>
              {ALERT_AGE_LABELS[a]}
            </option>
          ))}
        </select>
      </label>
      {alertListParams.isFiltered(state) ? (
        <button
          type="button"
          className="h-8 px-2 text-slate-600 hover:underline"
          onClick={() => setFilters(alertListParams.clearedFilters())}
        >
          Clear
        </button>
      ) : null}
      <div className="ml-auto">{columns}</div>
    </div>
  );
}
