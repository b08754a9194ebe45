"use client";
import { useRef } from "react";
import { choices, dateRangeRule, FilterBar, type FilterField, type QuickViews } from "@/components/data-table/filter-bar";
import { useListState } from "@/components/data-table/use-data-table";
import { Button } from "@/components/ui/button";
import { COMBO_TYPES, INSTRUMENT_TYPES, MARKETS, ORDER_STATUSES, ORDER_TYPES, SIDES, TIME_IN_FORCE } from "@/lib/broker-enums";
import { ORDER_VIEW_LABELS, ORDER_VIEWS, orderListParams, type OrderListParams } from "@/lib/schemas/order-list";
import { ORDER_TYPE_LABELS } from "@/lib/schemas/order-type-labels";
import { BlotterGrid } from "./blotter-grid";
import { OrderCheckLine } from "./order-check-line";
import { RowChangeLayer } from "./row-change";
import { COMBO_TYPE_LABELS, ORDER_STATUS_LABELS, SIDE_LABELS, TIME_IN_FORCE_LABELS } from "./order-labels";
import { useBlotter } from "./use-blotter";

const ORDER_FILTERS: FilterField<OrderListParams>[] = [
  { name: "account", label: "Account", kind: "account", placeholder: "Number or id", width: "w-44" },
  { name: "symbol", label: "Symbol", kind: "text", placeholder: "AAPL", width: "w-24", upper: true },
  { name: "market", label: "Market", kind: "select", options: MARKETS },
  { name: "type", label: "Instrument", kind: "select", options: choices(INSTRUMENT_TYPES, (o) => (o === "EQUITY" ? "Stock" : "Option")) },
  { name: "side", label: "Side", kind: "select", options: choices(SIDES, (o) => SIDE_LABELS[o] ?? o) },
  { name: "status", label: "Status", kind: "select", options: choices(ORDER_STATUSES, (o) => ORDER_STATUS_LABELS[o] ?? o) },
  { name: "orderType", label: "Order type", kind: "select", options: choices(ORDER_TYPES, (o) => ORDER_TYPE_LABELS[o] ?? o) },
  { name: "combo", label: "Combo", kind: "select", options: choices(COMBO_TYPES, (o) => COMBO_TYPE_LABELS[o] ?? o) },
  { name: "tif", label: "Time in force", kind: "select", options: choices(TIME_IN_FORCE, (o) => TIME_IN_FORCE_LABELS[o] ?? o) },
  { name: "from", label: "Placed from", kind: "date" },
  { name: "to", label: "to", kind: "date", joined: true },
];
const ORDER_QUICK_VIEWS: QuickViews<OrderListParams> = {
  name: "view",
  all: "All orders",
  options: choices(ORDER_VIEWS, (v) => ORDER_VIEW_LABELS[v]),
};

/**
 * The orders blotter: filters in the URL (the data-table kit's list state), rows read by keyset pages as the
 * reader scrolls and virtualised (only the rows on screen are in the DOM, so 100,000 scroll like 100), changes
 * arriving live highlighted in place and new orders announced in a bar instead of pushing the list down.
 */
export function OrdersBlotter({ canModify }: { canModify: boolean }) {
  const list = useListState(orderListParams);
  const blotter = useBlotter(list.state);
  const { rows } = blotter;
  const scroller = useRef<HTMLDivElement>(null);
  const empty = !rows.length && !blotter.busy && !blotter.stale;
  return (
    <RowChangeLayer canModify={canModify}>
      <FilterBar
        list={list}
        fields={ORDER_FILTERS}
        rules={[dateRangeRule]}
        views={ORDER_QUICK_VIEWS}
        label="Filter orders"
        exportPath="/api/orders/export"
      />
      {list.state.account ? <OrderCheckLine key={list.state.account} account={list.state.account} /> : null}
      {blotter.fresh.length ? (
        <div
          role="status"
          className="flex items-center justify-between rounded border border-blue-200 bg-blue-50 px-3 py-1.5 text-sm text-blue-900"
        >
          <span data-testid="fresh-orders">
            {blotter.fresh.length} new {blotter.fresh.length === 1 ? "order" : "orders"}
          </span>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              blotter.show();
              scroller.current?.scrollTo({ top: 0 });
            }}
          >
            Show
          </Button>
        </div>
      ) : null}
      {blotter.error && !blotter.failed ? (
        <div role="alert" className="flex items-center gap-2 rounded border border-red-200 bg-red-50 px-3 py-1.5 text-sm text-red-800">
          {blotter.error}
          <Button size="sm" variant="secondary" onClick={() => void blotter.retry()}>
            Retry
          </Button>
        </div>
      ) : null}
      <div
        ref={scroller}
        className={`h-[calc(100vh-15rem)] min-h-80 overflow-auto rounded border border-slate-200 bg-white ${blotter.stale ? "opacity-60" : ""}`}
        data-testid="blotter-scroller"
        aria-busy={blotter.busy}
      >
        <BlotterGrid
          rows={rows}
          flash={blotter.flash}
          gone={blotter.gone}
          more={blotter.more}
          loadMore={blotter.loadMore}
          scroller={scroller}
          empty={
            blotter.failed ? (
              // This filter's first read failed: its error in the rows' place (no earlier filter's rows stand for it).
              <div role="alert" className="flex flex-col items-center gap-2 text-red-800" data-testid="blotter-error">
                <span>{blotter.error}</span>
                <Button size="sm" variant="secondary" onClick={() => void blotter.retry()} disabled={blotter.busy}>
                  {blotter.busy ? "Retrying…" : "Retry"}
                </Button>
              </div>
            ) : empty ? (
              orderListParams.isFiltered(list.state) ? (
                "No orders match these filters."
              ) : (
                "The desk has no orders yet."
              )
            ) : undefined
          }
        />
      </div>
      <p className="text-xs text-slate-500" data-testid="blotter-count">
        {blotter.failed ? null : (
          <>
            {rows.length.toLocaleString("en-US")} {rows.length === 1 ? "order" : "orders"} shown
            {blotter.more ? " · more load as you scroll" : ""}
          </>
        )}
      </p>
    </RowChangeLayer>
  );
}
