"use client";
import { useRouter } from "next/navigation";
import { memo, useEffect, useState, type RefObject } from "react";
import { flushSync } from "react-dom";
import type { OrderRow } from "@/lib/schemas/order-list";
import { BLOTTER_COLUMNS, BLOTTER_GRID, BLOTTER_WIDTH } from "./blotter-columns";

const ROW_HEIGHT = 30;
/** Rows rendered above and below the screen. */
const OVERSCAN = 15;

/**
 * The virtualised body of the blotter: only the rows on screen (and a few around) are in the DOM. Rows have one
 * fixed height, so the window is arithmetic on the scroll position: O(1) whatever the number of rows read, and a
 * new page read while scrolling costs nothing here. Scrolling re-renders this component alone, and a row that stays
 * on screen is not rendered again (BlotterRow is memoised on its row object, which changes only with the order).
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
  const [view, setView] = useState({ first: 0, count: 40 });
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const update = () => {
      const first = Math.floor(el.scrollTop / ROW_HEIGHT);
      const count = Math.ceil(el.clientHeight / ROW_HEIGHT) + 1;
      setView((v) => (v.first === first && v.count === count ? v : { first, count }));
    };
    update();
    // Synchronously, in the scroll event: the rows are there in the frame that shows the new position.
    const onScroll = () => flushSync(update);
    el.addEventListener("scroll", onScroll, { passive: true });
    const resize = new ResizeObserver(update);
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll);
      resize.disconnect();
    };
  }, [scroller]);
  const from = Math.max(0, view.first - OVERSCAN);
  const to = Math.min(rows.length, view.first + view.count + OVERSCAN);
  // Read the next page well before the reader reaches the end of what is there.
  useEffect(() => {
    if (more && to >= rows.length - 150) loadMore();
  }, [to, rows.length, more, loadMore]);

  return (
    <div role="table" aria-label="Orders" aria-rowcount={rows.length + 1} style={{ minWidth: BLOTTER_WIDTH }} className="text-xs">
      <div
        role="row"
        className="sticky top-0 z-10 grid border-b border-slate-200 bg-slate-50"
        style={{ gridTemplateColumns: BLOTTER_GRID }}
      >
        {BLOTTER_COLUMNS.map((c) => (
          <div
            key={c.id}
            role="columnheader"
            className={`truncate px-2 py-1.5 font-semibold text-slate-600 ${c.numeric ? "text-right" : ""}`}
          >
            {c.label}
          </div>
        ))}
      </div>
      {empty ? <div className="px-3 py-8 text-center text-sm text-slate-500">{empty}</div> : null}
      <div
        role="rowgroup"
        style={{ height: rows.length * ROW_HEIGHT, position: "relative" }}
        // One handler for every row: a click on a row or its link opens the order inside the app (a link opened
        // in a new tab, with a modifier key or the middle button, is left to the browser).
        onClick={(e) => {
          const target = e.target as HTMLElement;
          const id = target.closest<HTMLElement>("[data-order]")?.dataset.order;
          if (!id || target.closest("button") || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          router.push(`/orders/${id}`);
        }}
      >
        {rows.slice(from, to).map((r, i) => (
          <BlotterRow key={r.id} row={r} index={from + i} top={(from + i) * ROW_HEIGHT} lit={flash.has(r.id)} gone={gone.has(r.id)} />
        ))}
      </div>
    </div>
  );
}

const BlotterRow = memo(function BlotterRow({
  row: r,
  index,
  top,
  lit,
  gone,
}: {
  row: OrderRow;
  index: number;
  top: number;
  lit: boolean;
  gone: boolean;
}) {
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
