"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRouter } from "next/navigation";
import { memo, useEffect, type RefObject } from "react";
import type { OrderRow } from "@/lib/schemas/order-list";
import { BLOTTER_COLUMNS, BLOTTER_GRID, BLOTTER_WIDTH } from "./blotter-columns";

const ROW_HEIGHT = 30;

/**
 * The virtualised body of the blotter: only the rows on screen (and a few around) are in the DOM. Scrolling
 * re-renders this component alone, and a row that stays on screen is not rendered again (BlotterRow is memoised on
 * its row object, which changes only when the order does).
 */
export function BlotterGrid({
  rows,
  flash,
  gone,
  more,
  loadMore,
  empty,
  scroller,
}: {
  rows: OrderRow[];
  flash: ReadonlySet<string>;
  gone: ReadonlySet<string>;
  more: boolean;
  loadMore: () => void;
  empty?: string;
  scroller: RefObject<HTMLDivElement | null>;
}) {
  const router = useRouter();
  // eslint-disable-next-line react-hooks/incompatible-library -- read on every render; nothing memoised depends on it
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  // Read the next page well before the reader reaches the end of what is there.
  useEffect(() => {
    if (more && lastIndex >= rows.length - 150) loadMore();
  }, [lastIndex, rows.length, more, loadMore]);

  return (
    <div role="table" aria-label="Orders" aria-rowcount={rows.length + 1} style={{ minWidth: BLOTTER_WIDTH }} className="text-xs">
      <div role="row" className="sticky top-0 z-10 grid border-b border-slate-200 bg-slate-50" style={{ gridTemplateColumns: BLOTTER_GRID }}>
        {BLOTTER_COLUMNS.map((c) => (
          <div key={c.id} role="columnheader" className={`truncate px-2 py-1.5 font-semibold text-slate-600 ${c.numeric ? "text-right" : ""}`}>
            {c.label}
          </div>
        ))}
      </div>
      {empty ? <div className="px-3 py-8 text-center text-sm text-slate-500">{empty}</div> : null}
      <div
        role="rowgroup"
        style={{ height: virtualizer.getTotalSize(), position: "relative" }}
        // One handler for every row: a click anywhere but a link opens the order.
        onClick={(e) => {
          const target = e.target as HTMLElement;
          const id = target.closest<HTMLElement>("[data-order]")?.dataset.order;
          if (id && !target.closest("a,button")) router.push(`/orders/${id}`);
        }}
      >
        {items.map((item) => {
          const r = rows[item.index];
          return <BlotterRow key={r.id} row={r} index={item.index} top={item.start} lit={flash.has(r.id)} gone={gone.has(r.id)} />;
        })}
      </div>
    </div>
  );
}

const BlotterRow = memo(function BlotterRow({ row: r, index, top, lit, gone }: { row: OrderRow; index: number; top: number; lit: boolean; gone: boolean }) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-order={r.id}
      data-testid={`order-row-${r.clientOrderId}`}
      data-changed={lit || undefined}
      className={`absolute top-0 left-0 grid w-full cursor-pointer items-center border-b border-slate-100 transition-colors duration-700 hover:bg-blue-50/60 ${
        lit ? "bg-amber-100" : ""
      } ${gone ? "opacity-50" : ""}`}
      style={{ height: ROW_HEIGHT, transform: `translateY(${top}px)`, gridTemplateColumns: BLOTTER_GRID }}
      title={gone ? "No longer matches the filters" : undefined}
    >
      {BLOTTER_COLUMNS.map((c) => (
        <div key={c.id} role="cell" className={`truncate px-2 ${c.numeric ? "text-right tabular-nums" : ""}`}>
          {c.cell(r)}
        </div>
      ))}
    </div>
  );
});
