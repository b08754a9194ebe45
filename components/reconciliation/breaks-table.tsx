"use client";
import { useMemo } from "react";
import { useListing } from "@/components/data-table/use-data-table";
import { choices, type FilterField } from "@/components/data-table/filter-bar";
import { ListingTable } from "@/components/data-table/listing-table";
import {
  BREAK_KIND_LABELS,
  BREAK_KINDS,
  BREAK_STATUS_LABELS,
  BREAK_STATUSES,
  breakListParams,
  type BreakListParams,
  type BreakRow,
  type ReconciliationRun,
} from "@/lib/schemas/reconciliation";
import type { RunsPage } from "@/lib/schemas/runs";
import { breakColumns } from "./breaks-columns";
import { breakList } from "./labels";
import { noBreaksText, useRuns } from "./use-runs";

/** The breaks: URL state → one page through /api/reconciliation/breaks, prefetched by the page; live notices refetch it. */
export function BreaksTable({ assignees, runs }: { assignees: { email: string; name: string }[]; runs: RunsPage<ReconciliationRun> }) {
  const latest = useRuns(runs).runs;
  const filters = useMemo<FilterField<BreakListParams>[]>(
    () => [
      {
        name: "status",
        label: "Status",
        kind: "select",
        all: "Any",
        width: "w-32",
        options: choices(BREAK_STATUSES, (s) => BREAK_STATUS_LABELS[s]),
      },
      {
        name: "kind",
        label: "Kind",
        kind: "select",
        all: "Any",
        width: "w-44",
        options: choices(BREAK_KINDS, (k) => BREAK_KIND_LABELS[k]),
      },
      {
        name: "assignee",
        label: "Assigned to",
        kind: "select",
        all: "Anyone",
        width: "w-64",
        options: [{ value: "none", label: "Nobody" }, ...assignees.map((a) => ({ value: a.email, label: `${a.name} (${a.email})` }))],
      },
    ],
    [assignees],
  );
  const listing = useListing(breakListParams, breakList, { columns: breakColumns, getRowId: (r: BreakRow) => r.id });
  return (
    <ListingTable
      listing={listing}
      filters={filters}
      label="Filter breaks"
      empty={["No breaks match these filters.", noBreaksText(latest)]}
      rowHref={(r) => `/reconciliation/breaks/${r.id}`}
      rowTestId={() => "break-row"}
    />
  );
}
