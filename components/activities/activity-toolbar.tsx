"use client";
import type { ReactNode } from "react";
import { choices, dateRangeRule, FilterBar, type FilterField, type FilterRule } from "@/components/data-table/filter-bar";
import type { ListStateApi } from "@/components/data-table/use-data-table";
import { CURRENCIES, MARKETS } from "@/lib/broker-enums";
import { ACTIVITY_SUB_TYPES, ACTIVITY_TYPE_LABELS, ACTIVITY_TYPES, isLive, type ActivityListParams } from "@/lib/schemas/activity-list";

const AMOUNT = "Enter an amount such as 1000.50";

const ACTIVITY_FILTERS: FilterField<ActivityListParams>[] = [
  {
    name: "type",
    label: "Type",
    kind: "select",
    width: "w-40",
    options: choices(ACTIVITY_TYPES, (t) => ACTIVITY_TYPE_LABELS[t] ?? `unknown (${t})`),
  },
  // The upstream names a few sub-types; its rows carry more (WIRE_IN, CASH_DIVIDEND…): any word is taken.
  { name: "subType", label: "Sub-type", kind: "text", placeholder: "Any", width: "w-32", suggestions: ACTIVITY_SUB_TYPES, upper: true },
  { name: "account", label: "Account", kind: "account", placeholder: "Number or id", width: "w-36" },
  { name: "currency", label: "Currency", kind: "select", width: "w-20", options: CURRENCIES },
  { name: "market", label: "Market", kind: "select", width: "w-20", options: MARKETS },
  { name: "symbol", label: "Symbol", kind: "text", placeholder: "e.g. AAPL", width: "w-24" },
  { name: "from", label: "From", kind: "date" },
  { name: "to", label: "to", kind: "date", joined: true },
  { name: "min", label: "Amount at least", kind: "text", placeholder: "0.00", width: "w-24", numeric: true, invalid: AMOUNT },
  { name: "max", label: "at most", kind: "text", placeholder: "any", width: "w-24", numeric: true, invalid: AMOUNT, joined: true },
];
const ACTIVITY_RULES: FilterRule[] = [
  dateRangeRule,
  ({ min, max }) =>
    min && max && Number(min) > Number(max) ? { field: "max", message: "The largest amount is below the smallest" } : undefined,
];

/**
 * The explorer's filters (the one filter bar). With one account, a switch between the upstream (live) and the
 * desk's copy.
 */
export function ActivityToolbar({ list, actions }: { list: ListStateApi<ActivityListParams>; actions: ReactNode }) {
  const { state, setFilters } = list;
  return (
    <div className="flex flex-col gap-2">
      <FilterBar list={list} fields={ACTIVITY_FILTERS} rules={ACTIVITY_RULES} label="Filter activities" actions={actions} />
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
