"use client";
import { useListing } from "@/components/data-table/use-data-table";
import { choices, type FilterField } from "@/components/data-table/filter-bar";
import { ListingTable } from "@/components/data-table/listing-table";
import { accountListParams, SEARCH_FIELDS, type AccountListParams } from "@/lib/schemas/account-list-params";
import { ACCOUNT_STATUSES, ACCOUNT_TYPES, OPTION_LEVELS, TRADING_PERMISSIONS } from "@/lib/schemas/virtual-account";
import type { AccountRow } from "@/lib/schemas/virtual-account-view";
import { accountColumns } from "./accounts-columns";
import { permissionLabel } from "./labels";
import { accountList } from "./query-keys";

const SEARCH_FIELD_LABELS = {
  auto: "Any",
  name: "Name",
  account_number: "Account number",
  external_account_number: "External number",
} as const;

const ACCOUNT_FILTERS: FilterField<AccountListParams>[] = [
  {
    name: "q",
    label: "Search",
    kind: "text",
    aria: "Search accounts",
    asYouType: true,
    placeholder: "Account no., external no. or name",
    width: "w-64",
  },
  {
    name: "by",
    label: "Search in",
    kind: "select",
    all: false,
    width: "w-32",
    options: choices(SEARCH_FIELDS, (f) => SEARCH_FIELD_LABELS[f]),
  },
  { name: "status", label: "Status", kind: "select", width: "w-32", options: ACCOUNT_STATUSES },
  { name: "type", label: "Type", kind: "select", width: "w-32", options: ACCOUNT_TYPES },
  { name: "level", label: "Option level", kind: "select", width: "w-32", options: OPTION_LEVELS },
  { name: "permission", label: "Permission", kind: "select", width: "w-32", options: choices(TRADING_PERMISSIONS, permissionLabel) },
];

/** The accounts list: URL state → one upstream page through /api/accounts, prefetched by the page on first load. */
export function AccountsTable() {
  const listing = useListing(accountListParams, accountList, {
    columns: accountColumns,
    getRowId: (r: AccountRow) => r.account_id,
  });

  return (
    <ListingTable
      listing={listing}
      filters={ACCOUNT_FILTERS}
      label="Filter accounts"
      exportPath="/api/accounts/export"
      empty={["No accounts match these filters.", "There are no virtual accounts yet."]}
      rowHref={(r) => `/accounts/${r.account_id}`}
      rowTestId={(r) => `account-row-${r.external_account_number}`}
    />
  );
}
