"use client";
import type { ReactNode } from "react";
import { FilterSelect, filterInput, filterLabel } from "@/components/data-table/filter-fields";
import type { ListStateApi } from "@/components/data-table/use-data-table";
import { CURRENCIES, MARKETS } from "@/lib/broker-enums";
import {
  ACTIVITY_SUB_TYPES,
  ACTIVITY_TYPE_LABELS,
  ACTIVITY_TYPES,
  activityFilterSchema,
  activityListParams,
  isLive,
  type ActivityListParams,
} from "@/lib/schemas/activity-list";

const input = filterInput;
const label = filterLabel;

/**
 * The explorer's filters: a select applies at once, the text boxes on Enter or Filter. With one account, a switch
 * between the upstream (live) and the desk's copy.
 */
export function ActivityToolbar({ list, actions }: { list: ListStateApi<ActivityListParams>; actions: ReactNode }) {
  const { state, setFilters } = list;
  const select = (
    name: keyof ActivityListParams,
    title: string,
    options: readonly string[],
    show?: (o: string) => string,
    width?: string,
  ) => <FilterSelect name={name} title={title} value={state[name] as string | undefined} options={options} show={show} width={width} />;
  const text = (name: keyof ActivityListParams, title: string, placeholder: string, width: string) => (
    <label className={label}>
      {title}
      <input name={name} defaultValue={state[name] as string | undefined} placeholder={placeholder} className={`${input} ${width}`} />
    </label>
  );
  return (
    <div className="flex flex-col gap-2">
      <form
        key={activityListParams.filterQuery(state)}
        role="search"
        aria-label="Filter activities"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const values = Object.fromEntries([...new FormData(e.currentTarget)].filter(([, v]) => v !== ""));
          setFilters({
            ...activityListParams.clearedFilters(),
            ...activityFilterSchema.parse({ ...values, source: values.account ? state.source : undefined }),
          });
        }}
      >
        {select(
          "type",
          "Type",
          ACTIVITY_TYPES,
          (o) => ACTIVITY_TYPE_LABELS[o as keyof typeof ACTIVITY_TYPE_LABELS] ?? `unknown (${o})`,
          "w-40",
        )}
        <label className={label}>
          Sub-type
          {/* The upstream names a few; its rows carry more (WIRE_IN, CASH_DIVIDEND…): any word is taken. */}
          <input
            name="subType"
            list="activity-sub-types"
            defaultValue={state.subType}
            placeholder="Any"
            className={`${input} w-32 uppercase placeholder:normal-case`}
          />
          <datalist id="activity-sub-types">
            {ACTIVITY_SUB_TYPES.map((o) => (
              <option key={o} value={o} />
            ))}
          </datalist>
        </label>
        {text("account", "Account", "Number or id", "w-36")}
        {select("currency", "Currency", CURRENCIES, undefined, "w-20")}
        {select("market", "Market", MARKETS, undefined, "w-20")}
        {text("symbol", "Symbol", "e.g. AAPL", "w-24")}
        <label className={label}>
          From
          <input type="date" name="from" defaultValue={state.from} className={`${input} w-32`} />
        </label>
        <label className={label}>
          to
          <input type="date" name="to" defaultValue={state.to} className={`${input} w-32`} />
        </label>
        <label className={label}>
          Amount at least
          <input name="min" inputMode="decimal" defaultValue={state.min} placeholder="0.00" className={`${input} w-24 text-right`} />
        </label>
        <label className={label}>
          at most
          <input name="max" inputMode="decimal" defaultValue={state.max} placeholder="any" className={`${input} w-24 text-right`} />
        </label>
        <button type="submit" className="h-7 rounded bg-blue-700 px-3 text-xs font-medium text-white hover:bg-blue-800">
          Filter
        </button>
        {activityListParams.isFiltered(state) ? (
          <button
            type="button"
            className="h-7 px-2 text-xs text-slate-600 hover:underline"
            onClick={() => setFilters(activityListParams.clearedFilters())}
          >
            Clear
          </button>
        ) : null}
        <div className="ml-auto flex items-end gap-2">{actions}</div>
      </form>
      {state.account ? (
        <div className="flex items-center gap-1 text-xs" role="group" aria-label="Source of the rows">
          <span className="mr-1 text-slate-600">Rows of account {state.account} from</span>
          {(["live", "desk"] as const).map((s) => (
            <button
              key={s}
              type="button"
              aria-pressed={(s === "live") === isLive(state)}
              onClick={() => setFilters({ source: s === "live" ? undefined : "desk" })}
              className={`h-6 rounded-full border px-3 font-medium ${(s === "live") === isLive(state) ? "border-blue-700 bg-blue-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`}
            >
              {s === "live" ? "the upstream (live)" : "the desk's copy"}
            </button>
          ))}
          {isLive(state) ? (
            <span className="ml-2 text-slate-500">
              Currency, market, symbol and amount narrow each upstream page, so a page may hold fewer rows.
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
