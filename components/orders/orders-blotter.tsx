"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { useListState } from "@/components/data-table/use-data-table";
import { Button } from "@/components/ui/button";
import { orderListParams, type OrderPage } from "@/lib/schemas/order-list";
import { BLOTTER_COLUMNS, BLOTTER_GRID, BLOTTER_WIDTH } from "./blotter-columns";
import { BlotterToolbar } from "./blotter-toolbar";
import { useBlotter } from "./use-blotter";

const ROW_HEIGHT = 30;

/**
 * The orders blotter: filters in the URL (the data-table kit's list state), rows read by keyset pages as the
 * reader scrolls and virtualised (only the rows on screen are in the DOM, so 100,000 scroll like 100), changes
 * arriving live highlighted in place and new orders announced in a bar instead of pushing the list down.
 */
export function OrdersBlotter({ initial }: { initial: { query: string; page: OrderPage } }) {
  const list = useListState(orderListParams);
  const blotter = useBlotter(list.state, initial);
  const { rows, more, loadMore } = blotter;
  const router = useRouter();
  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- read on every render; nothing memoised depends on it
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  // Read the next page well before the reader reaches the end of what is there.
  useEffect(() => {
    if (more && lastIndex >= rows.length - 100) loadMore();
  }, [lastIndex, rows.length, more, loadMore]);

  const empty = !rows.length && !blotter.busy && !blotter.stale;
  return (
    <div className="flex flex-col gap-2">
      <BlotterToolbar list={list} />
      {blotter.fresh.length ? (
        <div role="status" className="flex items-center justify-between rounded border border-blue-200 bg-blue-50 px-3 py-1.5 text-sm text-blue-900">
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
      {blotter.error ? (
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
        <div role="table" aria-label="Orders" aria-rowcount={rows.length + 1} style={{ minWidth: BLOTTER_WIDTH }} className="text-xs">
          <div role="row" className="sticky top-0 z-10 grid border-b border-slate-200 bg-slate-50" style={{ gridTemplateColumns: BLOTTER_GRID }}>
            {BLOTTER_COLUMNS.map((c) => (
              <div key={c.id} role="columnheader" className={`truncate px-2 py-1.5 font-semibold text-slate-600 ${c.numeric ? "text-right" : ""}`}>
                {c.label}
              </div>
            ))}
          </div>
          {empty ? (
            <div className="px-3 py-8 text-center text-sm text-slate-500">
              {orderListParams.isFiltered(list.state) ? "No orders match these filters." : "The desk has no orders yet."}
            </div>
          ) : null}
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((item) => {
              const r = rows[item.index];
              const lit = blotter.flash.has(r.id);
              const gone = blotter.gone.has(r.id);
              return (
                <div
                  key={r.id}
                  role="row"
                  aria-rowindex={item.index + 2}
                  data-testid={`order-row-${r.clientOrderId}`}
                  data-changed={lit || undefined}
                  className={`absolute top-0 left-0 grid w-full cursor-pointer items-center border-b border-slate-100 transition-colors duration-700 hover:bg-blue-50/60 ${
                    lit ? "bg-amber-100" : ""
                  } ${gone ? "opacity-50" : ""}`}
                  style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)`, gridTemplateColumns: BLOTTER_GRID }}
                  title={gone ? "No longer matches the filters" : undefined}
                  onClick={(e) => !(e.target as HTMLElement).closest("a,button") && router.push(`/orders/${r.id}`)}
                >
                  {BLOTTER_COLUMNS.map((c) => (
                    <div key={c.id} role="cell" className={`truncate px-2 ${c.numeric ? "text-right tabular-nums" : ""}`}>
                      {c.cell(r)}
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <p className="text-xs text-slate-500" data-testid="blotter-count">
        {rows.length.toLocaleString("en-US")} {rows.length === 1 ? "order" : "orders"} shown{more ? " · more load as you scroll" : ""}
      </p>
    </div>
  );
}
