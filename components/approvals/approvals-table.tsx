"use client";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { ColumnsMenu, CursorPagination } from "@/components/data-table/data-table-controls";
import { useDataTable, useListState, type ListPage } from "@/components/data-table/use-data-table";
import {
  APPROVAL_RULE_ACTIONS,
  APPROVAL_STATUS_LABELS,
  APPROVAL_STATUSES,
  approvalFilterSchema,
  approvalListParams,
  type ApprovalListRow,
} from "@/lib/schemas/approvals";
import { approvalColumns } from "./approval-columns";

const input = "h-8 rounded border border-slate-300 px-2 text-sm font-normal";

/** The inbox: one keyset page read by the server page (pending first); filters and paging navigate. */
export function ApprovalsTable({ page, now }: { page: ListPage<ApprovalListRow>; now: string }) {
  const list = useListState(approvalListParams, { navigation: "router" });
  const columns = useMemo(() => approvalColumns(Date.parse(now)), [now]);
  const { table, pagination, busy } = useDataTable({ list, columns, page, getRowId: (r) => r.id });
  const { state, setFilters } = list;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <form
          key={approvalListParams.filterQuery(state)}
          className="flex flex-wrap items-end gap-2 text-sm"
          role="search"
          onChange={(e) => setFilters(approvalFilterSchema.parse(Object.fromEntries(new FormData(e.currentTarget))))}
          onSubmit={(e) => e.preventDefault()}
        >
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
            Status
            <select name="status" defaultValue={state.status ?? ""} className={`${input} w-36`}>
              <option value="">Any</option>
              {APPROVAL_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {APPROVAL_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium text-slate-700">
            Action
            <select name="action" defaultValue={state.action ?? ""} className={`${input} w-64`}>
              <option value="">Any</option>
              {Object.entries(APPROVAL_RULE_ACTIONS).map(([key, label]) => (
                <option key={key} value={key}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          {approvalListParams.isFiltered(state) ? (
            <button
              type="button"
              className="h-8 px-2 text-slate-600 hover:underline"
              onClick={() => setFilters(approvalListParams.clearedFilters())}
            >
              Clear
            </button>
          ) : null}
        </form>
        <div className="ml-auto">
          <ColumnsMenu table={table} />
        </div>
      </div>
      <DataTable
        table={table}
        busy={busy}
        empty={approvalListParams.isFiltered(state) ? "No approval requests match these filters." : "Nothing waits for approval."}
        rowHref={(r) => `/approvals/${r.id}`}
        rowTestId={() => "approval-row"}
      />
      <CursorPagination {...pagination} />
    </div>
  );
}
