"use client";
import { useMemo } from "react";
import { useListing } from "@/components/data-table/use-data-table";
import { choices, type FilterField } from "@/components/data-table/filter-bar";
import { ListingTable } from "@/components/data-table/listing-table";
import {
  ALERT_AGE_LABELS,
  ALERT_AGES,
  ALERT_STATUS_LABELS,
  ALERT_STATUSES,
  alertListParams,
  type AlertListParams,
  type AlertRow,
  type SurveillanceRule,
} from "@/lib/schemas/surveillance";
import { alertColumns } from "./alerts-columns";
import { alertList } from "./alert-labels";

/** The compliance queue: URL state → one page through /api/alerts, prefetched by the page; live notices refetch it. */
export function AlertsTable({ rules }: { rules: Pick<SurveillanceRule, "id" | "name">[] }) {
  const filters = useMemo<FilterField<AlertListParams>[]>(
    () => [
      {
        name: "rule",
        label: "Rule",
        kind: "select",
        all: "Any",
        width: "w-72",
        options: rules.map((r) => ({ value: r.id, label: r.name })),
      },
      {
        name: "status",
        label: "Status",
        kind: "select",
        all: "Any",
        width: "w-32",
        options: choices(ALERT_STATUSES, (s) => ALERT_STATUS_LABELS[s]),
      },
      {
        name: "age",
        label: "Raised",
        kind: "select",
        all: "Any time",
        width: "w-44",
        options: choices(ALERT_AGES, (a) => ALERT_AGE_LABELS[a]),
      },
    ],
    [rules],
  );
  const listing = useListing(alertListParams, alertList, {
    columns: alertColumns,
    getRowId: (r: AlertRow) => r.id,
  });
  return (
    <ListingTable
      listing={listing}
      filters={filters}
      label="Filter alerts"
      empty={["No alerts match these filters.", "No alerts yet."]}
      rowHref={(r) => `/alerts/${r.id}`}
      rowTestId={() => "alert-row"}
    />
  );
}
