"use client";
import { useListing, useListQuery } from "@/components/data-table/use-data-table";
import { choices, dateRangeRule, type FilterField, type QuickViews } from "@/components/data-table/filter-bar";
import { ListingTable } from "@/components/data-table/listing-table";
import { failedRead } from "@/components/ui/panel-state";
import { CURRENCIES } from "@/lib/broker-enums";
import {
  MOVEMENT_STATUS_LABELS,
  MOVEMENT_STATUSES,
  MOVEMENT_TYPE_LABELS,
  MOVEMENT_TYPES,
  MOVEMENT_VIEW_LABELS,
  MOVEMENT_VIEWS,
  movementHref,
  movementListParams,
  type MovementListParams,
  type MovementRow,
  type MovementTotals,
} from "@/lib/schemas/movement-list";
import { movementColumns } from "./movement-columns";
import { MovementTotalsBar } from "./movement-totals";
import { movementList, movementListTotals } from "./query-keys";

const MOVEMENT_FILTERS: FilterField<MovementListParams>[] = [
  { name: "type", label: "Type", kind: "select", width: "w-40", options: choices(MOVEMENT_TYPES, (t) => MOVEMENT_TYPE_LABELS[t]) },
  { name: "status", label: "Status", kind: "select", width: "w-36", options: choices(MOVEMENT_STATUSES, (s) => MOVEMENT_STATUS_LABELS[s]) },
  { name: "account", label: "Account", kind: "account", placeholder: "Account id, either side", width: "w-48" },
  { name: "currency", label: "Currency", kind: "select", width: "w-20", options: CURRENCIES },
  { name: "requester", label: "Requester", kind: "text", placeholder: "Staff email", width: "w-44" },
  { name: "from", label: "From", kind: "date" },
  { name: "to", label: "to", kind: "date", joined: true },
];
const MOVEMENT_QUICK_VIEWS: QuickViews<MovementListParams> = {
  name: "view",
  all: "All movements",
  options: choices(MOVEMENT_VIEWS, (v) => MOVEMENT_VIEW_LABELS[v]),
};

/**
 * The movements list: URL state → one keyset page, and the filter's totals, through /api/movements, both prefetched
 * by the page on first load. Their keys are under "movements", so a movement notice on the live channel refetches
 * them in place; paging keeps the totals (their key is the filter alone).
 */
export function MovementsTable() {
  const listing = useListing(movementListParams, movementList, {
    columns: movementColumns,
    getRowId: (r: MovementRow) => r.id,
  });
  const totals = useListQuery<MovementTotals, MovementListParams>(movementListTotals, listing.state);
  return (
    <ListingTable
      listing={listing}
      filters={MOVEMENT_FILTERS}
      rules={[dateRangeRule]}
      views={MOVEMENT_QUICK_VIEWS}
      label="Filter movements"
      exportPath="/api/movements/export"
      above={<MovementTotalsBar totals={totals.data} stale={totals.isPlaceholderData} failed={failedRead(totals)} />}
      empty={["No movements match these filters.", "No money movements yet."]}
      rowHref={(r) => movementHref(r.kind, r.clientRequestId)}
      rowTestId={(r) => `movement-row-${r.clientRequestId}`}
    />
  );
}
