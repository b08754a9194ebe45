"use client";
import { useMemo } from "react";
import { choices, type FilterField } from "@/components/data-table/filter-bar";
import { ListingTable } from "@/components/data-table/listing-table";
import { useDataTable, useListQuery, useListState } from "@/components/data-table/use-data-table";
import {
  APPROVAL_RULE_ACTIONS,
  APPROVAL_STATUS_LABELS,
  APPROVAL_STATUSES,
  approvalListParams,
  type ApprovalInboxPage,
  type ApprovalListParams,
} from "@/lib/schemas/approvals";
import { approvalColumns } from "./approval-columns";
import { BulkDecide } from "./bulk-decide";
import { useApprovalSelection } from "./bulk-selection";
import { approvalList } from "./query-keys";

const APPROVAL_FILTERS: FilterField<ApprovalListParams>[] = [
  {
    name: "status",
    label: "Status",
    kind: "select",
    all: "Any",
    width: "w-36",
    options: choices(APPROVAL_STATUSES, (s) => APPROVAL_STATUS_LABELS[s]),
  },
  {
    name: "action",
    label: "Action",
    kind: "select",
    all: "Any",
    width: "w-64",
    options: Object.entries(APPROVAL_RULE_ACTIONS).map(([value, label]) => ({ value, label })),
  },
];

const NO_ROWS: ApprovalInboxPage["rows"] = [];

/**
 * The inbox: URL state → one keyset page through /api/approvals (pending first), prefetched by the page; a new
 * request, a decision or an expiry (each an audit entry, with the `approval` notice) refetches it. A person who
 * decides (`canDecide`) may select pending requests of the page and approve or reject them in one go.
 */
export function ApprovalsTable({ canDecide = false }: { canDecide?: boolean }) {
  // The columns (a request's age) are of the page's own time: the kit's three hooks composed here.
  const list = useListState(approvalListParams);
  const { state } = list;
  const query = useListQuery<ApprovalInboxPage, ApprovalListParams>(approvalList, state);
  const now = query.data?.now;
  const selection = useApprovalSelection(query.data?.rows ?? NO_ROWS);
  const timed = useMemo(() => approvalColumns(now ? Date.parse(now) : 0), [now]);
  const columns = canDecide ? [selection.column, ...timed] : timed;
  const { table, pagination, busy } = useDataTable({
    list,
    columns,
    page: query.data,
    getRowId: (r) => r.id,
    fetching: query.isPlaceholderData,
  });
  return (
    <ListingTable
      listing={{ list, state, query, table, pagination, busy }}
      filters={APPROVAL_FILTERS}
      label="Filter approval requests"
      above={canDecide ? <BulkDecide selected={selection.selected} onDone={selection.clear} /> : undefined}
      empty={["No approval requests match these filters.", "Nothing waits for approval."]}
      rowHref={(r) => `/approvals/${r.id}`}
      rowTestId={() => "approval-row"}
    />
  );
}
