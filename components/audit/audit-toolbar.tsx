"use client";
import type { ReactNode } from "react";
import type { ListStateApi } from "@/components/data-table/use-data-table";
import { ROLES } from "@/lib/auth/permissions";
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
      <Field label="Action" hint="Exact, or a prefix ending in “.”">
        <input name="action" defaultValue={state.action} placeholder="e.g. movements." className={`${input} w-40`} />
      </Field>
      <Field label="Actor">
        <input name="actor" defaultValue={state.actor} placeholder="email" className={`${input} w-48`} />
      </Field>
      <Field label="Role">
        <select name="role" defaultValue={state.role ?? ""} className={`${input} w-28`}>
          <option value="">Any</option>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Target" hint="Exact (kind:id), or an account id: the account and its orders">
        <input name="target" defaultValue={state.target} placeholder="account id or kind:id" className={`${input} w-40`} />
      </Field>
      <Field label="Outcome">
        <select name="outcome" defaultValue={state.outcome ?? ""} className={`${input} w-28`}>
          <option value="">Any</option>
          <option value="success">Success</option>
          <option value="failure">Failure</option>
          <option value="denied">Denied</option>
          <option value="held">Held for approval</option>
        </select>
      </Field>
      <Field label="Maker or checker" hint="Approvals this email made or decided">
        <input name="party" defaultValue={state.party} placeholder="email" className={`${input} w-44`} />
      </Field>
      <Field label="Request id" hint="The upstream request id">
        <input name="request" defaultValue={state.request} className={`${input} w-36`} />
      </Field>
      <Field label="From">
        <input type="date" name="from" defaultValue={state.from} className={`${input} w-36`} />
      </Field>
      <Field label="To">
        <input type="date" name="to" defaultValue={state.to} className={`${input} w-36`} />
      </Field>
      <button type="submit" className="h-8 rounded bg-blue-700 px-3 text-white hover:bg-blue-800">
        Filter
      </button>
      {auditListParams.isFiltered(state) ? (
        <button
          type="button"
          className="h-8 px-2 text-slate-600 hover:underline"
          onClick={() => setFilters(auditListParams.clearedFilters())}
        >
          Clear
        </button>
      ) : null}
      <div className="ml-auto">{columns}</div>
    </form>
  );
}

function Field({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-700" title={hint}>
      {label}
      {children}
    </label>
  );
}
