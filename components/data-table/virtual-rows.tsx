"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useReducer, useRef, type ReactNode, type RefObject } from "react";
import { flushSync } from "react-dom";

/**
 * The kit's windowed body for listings read as the reader scrolls (the orders blotter): @tanstack/react-virtual over
 * rows of one fixed height, so only the rows on screen (and `overscan` around them) are in the DOM and 100,000 rows
 * scroll like 100. The virtualiser renders in the scroll event (flushSync), so a frame never shows the new position
 * without its rows. `onEnd` is called when the window comes within `endMargin` rows of the last row read (the next
 * keyset page, read well before the reader gets there).
 */
export function VirtualRows<T>({
  rows,
  rowHeight,
  scroller,
  row,
  onEnd,
  endMargin = 150,
  overscan = 15,
  initialRows = 40,
}: {
  rows: readonly T[];
  rowHeight: number;
  scroller: RefObject<HTMLElement | null>;
  /** One row, placed at `top` (px from the first row) by a transform. */
  row: (item: T, index: number, top: number) => ReactNode;
  onEnd?: () => void;
  endMargin?: number;
  overscan?: number;
  /** Rows rendered before the scroller is measured (the server render). */
  initialRows?: number;
}) {
  // The virtualiser's own state drives this component's renders; nothing it returns is memoised further down.
  // eslint-disable-next-line react-hooks/incompatible-library -- see above
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan,
    initialRect: { width: 0, height: initialRows * rowHeight },
  });
  const items = virtualizer.getVirtualItems();
  // The range these rows were rendered for. The virtualiser renders in the scroll event while it deems the element
  // scrolling; after a pause longer than its reset delay (a busy machine) its next range can arrive outside the
  // event. This listener, registered after the virtualiser's own, renders any range the scroll event moved to
  // before the frame is painted.
  const rendered = useRef({ start: -1, end: -1 });
  rendered.current = { start: virtualizer.range?.startIndex ?? -1, end: virtualizer.range?.endIndex ?? -1 };
  const [, render] = useReducer((n: number) => n + 1, 0);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      const range = virtualizer.range;
      if (range && (range.startIndex !== rendered.current.start || range.endIndex !== rendered.current.end)) flushSync(render);
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => el.removeEventListener("scroll", onScroll);
  }, [scroller, virtualizer]);
  const last = items.length ? items[items.length - 1].index : 0;
  useEffect(() => {
    if (onEnd && last >= rows.length - endMargin) onEnd();
  }, [last, rows.length, endMargin, onEnd]);
  return <>{items.map((v) => row(rows[v.index], v.index, v.start))}</>;
}

/** The height of the rows' box: every row read, so the scrollbar says how far the reader is. */
export const virtualHeight = (count: number, rowHeight: number) => count * rowHeight;
