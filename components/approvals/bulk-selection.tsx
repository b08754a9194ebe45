"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import type { ApprovalListRow } from "@/lib/schemas/approvals";

/**
 * The inbox's selection for bulk decisions: the pending requests of the page on screen (a request decided meanwhile,
 * by anyone, leaves the selection as the live refetch brings its new status), a checkbox a row and one in the header
 * for every pending request of the page. Native checkboxes: Tab to one, Space to tick it.
 */
export function useApprovalSelection(rows: ApprovalListRow[]) {
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const pending = useMemo(() => rows.filter((r) => r.status === "pending"), [rows]);
  const selected = useMemo(() => pending.filter((r) => picked.has(r.id)), [pending, picked]);

  const toggle = (id: string, on: boolean) =>
    setPicked((p) => {
      const next = new Set(p);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const all = pending.length > 0 && selected.length === pending.length;
  const toggleAll = (on: boolean) => setPicked(on ? new Set(pending.map((r) => r.id)) : new Set());
  const clear = () => setPicked(new Set());

  const column: ColumnDef<ApprovalListRow> = {
    id: "select",
    enableHiding: false,
    meta: { label: "Select", className: "w-8" },
    header: () => (
      <input
        type="checkbox"
        aria-label="Select every pending request on this page"
        checked={all}
        disabled={!pending.length}
        ref={(el) => {
          if (el) el.indeterminate = selected.length > 0 && !all;
        }}
        onChange={(e) => toggleAll(e.target.checked)}
        className="size-4 align-middle"
      />
    ),
    cell: ({ row: { original: r } }) =>
      r.status === "pending" ? (
        <input
          type="checkbox"
          aria-label={`Select ${r.summary}`}
          checked={picked.has(r.id)}
          onChange={(e) => toggle(r.id, e.target.checked)}
          className="size-4 align-middle"
        />
      ) : null,
  };
  return { selected, clear, column };
}
