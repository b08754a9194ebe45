"use client";
import { useEffect, useState, type ReactNode } from "react";
import type { ListStateApi } from "@/components/data-table/use-data-table";
import { Select } from "@/components/ui/field";
import { accountListParams, type AccountListParams } from "@/lib/schemas/account-list-params";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS } from "@/lib/schemas/virtual-account";
import { permissionLabel } from "./labels";

const BY_LABELS = { auto: "Any", name: "Name", account_number: "Account number", external_account_number: "External number" } as const;

/** Search box (debounced) and filters; every change resets paging to the first page. */
export function AccountsToolbar({ list, columns }: { list: ListStateApi<AccountListParams>; columns: ReactNode }) {
  const { state: params, setFilters: onFilter } = list;
  const [q, setQ] = useState(params.q ?? "");
  // Follow the URL when it changes under us (Back button, Clear): adjust state while rendering, not in an effect.
  const [seenQ, setSeenQ] = useState(params.q);
  if (seenQ !== params.q) {
    setSeenQ(params.q);
    setQ(params.q ?? "");
  }
  useEffect(() => {
    if ((params.q ?? "") === q.trim()) return;
    const t = setTimeout(() => onFilter({ q: q.trim() || undefined }), 350);
    return () => clearTimeout(t);
  }, [q, params.q, onFilter]);

  const select = (
    label: string,
    value: string | undefined,
    options: readonly string[],
    key: keyof AccountListParams,
    show = (o: string) => o,
  ) => (
    <label className="flex flex-col gap-0.5 text-xs font-medium text-slate-600">
      {label}
      <Select className="w-32" value={value ?? ""} onChange={(e) => onFilter({ [key]: e.target.value || undefined })} aria-label={label}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {show(o)}
          </option>
        ))}
      </Select>
    </label>
  );

  return (
    <div className="flex flex-wrap items-end gap-2" role="search">
      <label className="flex flex-col gap-0.5 text-xs font-medium text-slate-600">
        Search
        <div className="flex">
          <input
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="Account no., external no. or name"
            aria-label="Search accounts"
            className="h-8 w-64 rounded-l border border-slate-300 bg-white px-2 text-sm font-normal text-slate-900 placeholder:text-slate-400"
          />
          <select
            aria-label="Search in"
            value={params.by}
            onChange={(e) => onFilter({ by: e.target.value as AccountListParams["by"] })}
            className="h-8 w-32 rounded-r border border-l-0 border-slate-300 bg-slate-50 px-1 text-xs font-normal text-slate-700"
          >
            {Object.entries(BY_LABELS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </div>
      </label>
      {select("Status", params.status, ACCOUNT_STATUSES, "status")}
      {select("Type", params.type, ACCOUNT_TYPES, "type")}
      {select("Option level", params.level, OPTION_LEVELS, "level")}
      {select("Permission", params.permission, TRADING_PERMISSIONS, "permission", permissionLabel)}
      {accountListParams.isFiltered(params) ? (
        <button
          type="button"
          className="h-8 px-2 text-sm text-slate-600 hover:underline"
          onClick={() => onFilter(accountListParams.clearedFilters())}
        >
          Clear
        </button>
      ) : null}
      <div className="ml-auto flex items-end gap-2">
        {columns}
        <a
          href={`/api/accounts/export${accountListParams.filterQuery(params)}`}
          className="flex h-8 items-center rounded border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100"
          download
        >
          Export CSV
        </a>
      </div>
    </div>
  );
}
