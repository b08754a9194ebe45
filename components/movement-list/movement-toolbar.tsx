"use client";
import type { ReactNode } from "react";
import { FilterSelect, filterInput, filterLabel } from "@/components/data-table/filter-fields";
import type { ListStateApi } from "@/components/data-table/use-data-table";
import { CURRENCIES } from "@/lib/broker-enums";
import {
  MOVEMENT_STATUS_LABELS,
  MOVEMENT_STATUSES,
  MOVEMENT_TYPE_LABELS,
  MOVEMENT_TYPES,
  MOVEMENT_VIEW_LABELS,
  MOVEMENT_VIEWS,
  movementFilterSchema,
  movementListParams,
  type MovementListParams,
} from "@/lib/schemas/movement-list";
import { movementUrls } from "./query-keys";

const input = filterInput;
const label = filterLabel;

/** Quick views, then the filters: a select applies at once, the text boxes on Enter or Filter. */
export function MovementToolbar({ list, columns }: { list: ListStateApi<MovementListParams>; columns: ReactNode }) {
  const { state, setFilters } = list;
  const select = (
    name: keyof MovementListParams,
    title: string,
    options: readonly string[],
    show?: (o: string) => string,
    width?: string,
  ) => <FilterSelect name={name} title={title} value={state[name] as string | undefined} options={options} show={show} width={width} />;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-1" role="group" aria-label="Quick views">
        {[undefined, ...MOVEMENT_VIEWS].map((v) => (
          <button
            key={v ?? "all"}
            type="button"
            aria-pressed={state.view === v}
            onClick={() => setFilters({ view: v })}
            className={`h-7 rounded-full border px-3 text-xs font-medium ${state.view === v ? "border-blue-700 bg-blue-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`}
          >
            {v ? MOVEMENT_VIEW_LABELS[v] : "All movements"}
          </button>
        ))}
        <div className="ml-auto flex items-center gap-2">
          {columns}
          <a
            href={movementUrls.export(state)}
            download
            className="rounded border border-slate-300 bg-white px-3 py-1 text-xs hover:bg-slate-100"
          >
            Export CSV
          </a>
        </div>
      </div>
      <form
        key={movementListParams.filterQuery(state)}
        role="search"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const values = Object.fromEntries([...new FormData(e.currentTarget)].filter(([, v]) => v !== ""));
          setFilters({ ...movementListParams.clearedFilters(), ...movementFilterSchema.parse({ ...values, view: state.view }) });
        }}
      >
        {select("type", "Type", MOVEMENT_TYPES, (o) => MOVEMENT_TYPE_LABELS[o as keyof typeof MOVEMENT_TYPE_LABELS] ?? o, "w-40")}
        {select(
          "status",
          "Status",
          MOVEMENT_STATUSES,
          (o) => MOVEMENT_STATUS_LABELS[o as keyof typeof MOVEMENT_STATUS_LABELS] ?? o,
          "w-36",
        )}
        <label className={label}>
          Account
          <input name="account" defaultValue={state.account} placeholder="Account id, either side" className={`${input} w-48`} />
        </label>
        {select("currency", "Currency", CURRENCIES, undefined, "w-20")}
        <label className={label}>
          Requester
          <input name="requester" defaultValue={state.requester} placeholder="Staff email" className={`${input} w-44`} />
        </label>
        <label className={label}>
          From
          <input type="date" name="from" defaultValue={state.from} className={`${input} w-32`} />
        </label>
        <label className={label}>
          to
          <input type="date" name="to" defaultValue={state.to} className={`${input} w-32`} />
        </label>
        <button type="submit" className="h-7 rounded bg-blue-700 px-3 text-xs font-medium text-white hover:bg-blue-800">
          Filter
        </button>
        {movementListParams.isFiltered(state) ? (
          <button
            type="button"
            className="h-7 px-2 text-xs text-slate-600 hover:underline"
            onClick={() => setFilters(movementListParams.clearedFilters())}
          >
            Clear
          </button>
        ) : null}
      </form>
    </div>
  );
}
