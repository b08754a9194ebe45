"use client";
import type { ListStateApi } from "@/components/data-table/use-data-table";
import { COMBO_TYPES, INSTRUMENT_TYPES, MARKETS, ORDER_STATUSES, ORDER_TYPES, SIDES, TIME_IN_FORCE } from "@/lib/broker-enums";
import { ORDER_VIEW_LABELS, ORDER_VIEWS, orderFilterSchema, orderListParams, type OrderListParams } from "@/lib/schemas/order-list";
import { ORDER_STATUS_LABELS } from "./order-labels";

const input = "h-7 rounded border border-slate-300 bg-white px-2 text-xs font-normal text-slate-900";
const label = "flex flex-col gap-0.5 text-[11px] font-medium text-slate-600";

/** Quick views, then the filters: a select applies at once, the text boxes on Enter or Filter. */
export function BlotterToolbar({ list }: { list: ListStateApi<OrderListParams> }) {
  const { state, setFilters } = list;
  const select = (name: keyof OrderListParams, title: string, options: readonly string[], show: (o: string) => string = (o) => o) => (
    <label className={label}>
      {title}
      <select
        name={name}
        defaultValue={(state[name] as string | undefined) ?? ""}
        className={`${input} w-28`}
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {show(o)}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-1" role="group" aria-label="Quick views">
        {[undefined, ...ORDER_VIEWS].map((v) => (
          <button
            key={v ?? "all"}
            type="button"
            aria-pressed={state.view === v}
            onClick={() => setFilters({ view: v })}
            className={`h-7 rounded-full border px-3 text-xs font-medium ${state.view === v ? "border-blue-700 bg-blue-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`}
          >
            {v ? ORDER_VIEW_LABELS[v] : "All orders"}
          </button>
        ))}
        <a
          href={`/api/orders/export${orderListParams.filterQuery(state)}`}
          download
          className="ml-auto rounded border border-slate-300 bg-white px-3 py-1 text-xs hover:bg-slate-100"
        >
          Export CSV
        </a>
      </div>
      <form
        key={orderListParams.filterQuery(state)}
        role="search"
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const values = Object.fromEntries([...new FormData(e.currentTarget)].filter(([, v]) => v !== ""));
          setFilters({ ...orderListParams.clearedFilters(), ...orderFilterSchema.parse({ ...values, view: state.view }) });
        }}
      >
        <label className={label}>
          Account
          <input name="account" defaultValue={state.account} placeholder="Account id" className={`${input} w-44`} />
        </label>
        <label className={label}>
          Symbol
          <input name="symbol" defaultValue={state.symbol} placeholder="AAPL" className={`${input} w-24 uppercase`} />
        </label>
        {select("market", "Market", MARKETS)}
        {select("type", "Instrument", INSTRUMENT_TYPES, (o) => (o === "EQUITY" ? "Stock" : "Option"))}
        {select("side", "Side", SIDES)}
        {select("status", "Status", ORDER_STATUSES, (o) => ORDER_STATUS_LABELS[o] ?? o)}
        {select("orderType", "Order type", ORDER_TYPES)}
        {select("combo", "Combo", COMBO_TYPES)}
        {select("tif", "Time in force", TIME_IN_FORCE)}
        <label className={label}>
          Placed from
          <input type="date" name="from" defaultValue={state.from} className={`${input} w-32`} />
        </label>
        <label className={label}>
          to
          <input type="date" name="to" defaultValue={state.to} className={`${input} w-32`} />
        </label>
        <button type="submit" className="h-7 rounded bg-blue-700 px-3 text-xs font-medium text-white hover:bg-blue-800">
          Filter
        </button>
        {orderListParams.isFiltered(state) ? (
          <button
            type="button"
            className="h-7 px-2 text-xs text-slate-600 hover:underline"
            onClick={() => setFilters(orderListParams.clearedFilters())}
          >
            Clear
          </button>
        ) : null}
      </form>
    </div>
  );
}
