"use client";
import { useRouter } from "next/navigation";
import { memo, type ReactNode, type RefObject } from "react";
import { VirtualRows, virtualHeight } from "@/components/data-table/virtual-rows";
import type { OrderRow } from "@/lib/schemas/order-list";
import { BLOTTER_COLUMNS, BLOTTER_GRID, BLOTTER_WIDTH } from "./blotter-columns";

const ROW_HEIGHT = 30;

/**
 * The blotter's grid: a sticky header and the kit's windowed body (`VirtualRows`, @tanstack/react-virtual): only
 * the rows on screen (and a few around) are in the DOM. Rows have one fixed height, and a row that stays on screen is
 * not rendered again (BlotterRow is memoised on its row object, which changes only with the order).
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
  /** What the grid says instead of rows (no orders match, or the read failed). */
  empty?: ReactNode;
  scroller: RefObject<HTMLDivElement | null>;
}) {
  const router = useRouter();
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
        style={{ height: virtualHeight(rows.length, ROW_HEIGHT), position: "relative" }}
        // One handler for every row: a click on a row or its link opens the order inside the app (a link opened
        // in a new tab, with a modifier key or the middle button, is left to the browser; a symbol opens its
        // instrument page, an account its account page).
        onClick={(e) => {
          const target = e.target as HTMLElement;
          const id = target.closest<HTMLElement>("[data-order]")?.dataset.order;
          if (
            !id ||
            target.closest("button, [data-symbol-link], [data-account-link]") ||
            e.metaKey ||
            e.ctrlKey ||
            e.shiftKey ||
            e.button !== 0
          )
            return;
          e.preventDefault();
          router.push(`/orders/${id}`);
        }}
      >
        <VirtualRows
          rows={rows}
          rowHeight={ROW_HEIGHT}
          scroller={scroller}
          onEnd={more ? loadMore : undefined}
          row={(r, index, top) => <BlotterRow key={r.id} row={r} index={index} top={top} lit={flash.has(r.id)} gone={gone.has(r.id)} />}
        />
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
