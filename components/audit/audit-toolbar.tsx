"use client";
import type { ReactNode } from "react";
import type { ListStateApi } from "@/components/data-table/use-data-table";
import { auditFilterSchema, auditListParams, type AuditListParams } from "@/lib/schemas/audit";

const input = "h-8 rounded border border-slate-300 px-2 text-sm font-normal";

/** The trail's filters: applied on submit (free text), read with the same schema as the URL. */
export function AuditToolbar({ list, columns }: { list: ListStateApi<AuditListParams>; columns: ReactNode }) {
  const { state, setFilters } = list;
  return (
    <form
      // A new form when the URL's filters change (Back, Clear), so the fields show them.
      key={auditListParams.filterQuery(state)}
      className="flex flex-wrap items-end gap-2 text-sm"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        setFilters(auditFilterSchema.parse(Object.fromEntries(new FormData(e.currentTarget))));
      }}
    >
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        Action
        <input name="action" defaultValue={state.action} placeholder="e.g. staff.create" className={`${input} w-48`} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        Actor
        <input name="actor" defaultValue={state.actor} placeholder="email" className={`${input} w-56`} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
        Outcome
        <select name="outcome" defaultValue={state.outcome ?? ""} className={`${input} w-32`}>
          <option value="">Any</option>
          <option value="success">Success</option>
          <option value="failure">Failure</option>
          <option value="denied">Denied</option>
          <option value="held">Held for approval</option>
        </select>
      </label>
      <button type="submit" className="h-8 rounded bg-blue-700 px-3 text-white hover:bg-blue-800">
        Filter
      </button>
      {auditListParams.isFiltered(state) ? (
        <button type="button" className="h-8 px-2 text-slate-600 hover:underline" onClick={() => setFilters(auditListParams.clearedFilters())}>
          Clear
        </button>
      ) : null}
      <div className="ml-auto">{columns}</div>
    </form>
  );
}
