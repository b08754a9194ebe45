"use client";
import type { Table } from "@tanstack/react-table";
import { useEffect, useRef, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Options } from "@/components/ui/field";

/**
 * Column visibility: a small menu of checkboxes (state lives in the URL through the table's onChange). It closes on
 * Escape (focus back on its button) and on a click or focus outside it.
 */
export function ColumnsMenu<T>({ table }: { table: Table<T> }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (target: EventTarget | null) => {
      const menu = ref.current;
      if (menu?.open && !(target instanceof Node && menu.contains(target))) menu.open = false;
    };
    const onPointer = (e: PointerEvent) => close(e.target);
    const onFocus = (e: FocusEvent) => close(e.target);
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("focusin", onFocus);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("focusin", onFocus);
    };
  }, []);
  const onKeyDown = (e: KeyboardEvent<HTMLDetailsElement>) => {
    if (e.key !== "Escape" || !ref.current?.open) return;
    e.preventDefault();
    ref.current.open = false;
    ref.current.querySelector("summary")?.focus();
  };
  return (
    <details ref={ref} className="relative" onKeyDown={onKeyDown}>
      <summary className="flex h-8 cursor-pointer list-none items-center rounded border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100">
        Columns
      </summary>
      <div className="absolute right-0 z-10 mt-1 w-48 rounded border border-slate-200 bg-white p-2 shadow-lg">
        {table
          .getAllLeafColumns()
          .filter((c) => c.getCanHide())
          .map((c) => (
            <label key={c.id} className="flex items-center gap-2 py-0.5 text-sm">
              <input type="checkbox" checked={c.getIsVisible()} onChange={c.getToggleVisibilityHandler()} />
              {c.columnDef.meta?.label ?? c.id}
            </label>
          ))}
      </div>
    </details>
  );
}

/**
 * Keyset paging over the upstream's cursor: First, Previous, Next and the page size. There is no page count (the
 * upstream does not give a total, and counting would mean reading every page).
 */
export function CursorPagination({
  page,
  pageSize,
  sizes,
  rowCount,
  hasFirst,
  hasPrevious,
  hasNext,
  onFirst,
  onPrevious,
  onNext,
  onPageSize,
}: {
  page: number;
  pageSize: number;
  sizes: readonly number[];
  rowCount: number;
  /** Not on the first page. */
  hasFirst: boolean;
  /** The page before is known (a deep page's trail holds the newest cursors only: First still goes back). */
  hasPrevious: boolean;
  hasNext: boolean;
  onFirst: () => void;
  onPrevious: () => void;
  onNext: () => void;
  onPageSize: (size: number) => void;
}) {
  return (
    <nav className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600" aria-label="Pagination">
      <span data-testid="page-info">
        Page {page} · {rowCount} {rowCount === 1 ? "row" : "rows"}
      </span>
      <div className="flex items-center gap-2">
        <label className="flex items-center gap-1">
          Rows per page
          <select
            className="h-7 rounded border border-slate-300 bg-white px-1 text-sm"
            value={pageSize}
            onChange={(e) => onPageSize(Number(e.target.value))}
          >
            <Options values={sizes} />
          </select>
        </label>
        <Button variant="secondary" size="sm" onClick={onFirst} disabled={!hasFirst}>
          First
        </Button>
        <Button variant="secondary" size="sm" onClick={onPrevious} disabled={!hasPrevious}>
          ← Previous
        </Button>
        <Button variant="secondary" size="sm" onClick={onNext} disabled={!hasNext}>
          Next →
        </Button>
      </div>
    </nav>
  );
}
