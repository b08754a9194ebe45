"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { formatDateTime } from "@/lib/format";
import type { AccountRow } from "@/lib/schemas/virtual-account-view";
import { commissionLabel, PermissionList, StatusBadge } from "./labels";

/**
 * The accounts table's columns: ids are the URL's hidden-column names. None sorts: the upstream lists newest first
 * and takes no order (account-list-params.ts).
 */
export const accountColumns: ColumnDef<AccountRow>[] = [
  {
    id: "account_number",
    accessorKey: "account_number",
    meta: { label: "Account number" },
    enableHiding: false,
    header: "Account number",
    cell: ({ row }) => (
      <Link
        href={`/accounts/${row.original.account_id}`}
        prefetch={false}
        className="font-mono text-xs font-medium text-blue-700 hover:underline"
      >
        {row.original.account_number || row.original.account_id}
      </Link>
    ),
  },
  {
    id: "external_account_number",
    accessorKey: "external_account_number",
    meta: { label: "External number", className: "font-mono text-xs" },
    header: "External no.",
  },
  {
    id: "owner_name",
    accessorKey: "owner_name",
    // A long name is cut to the column with the whole name on hover: the other columns stay on screen.
    meta: { label: "Owner", className: "max-w-40 truncate whitespace-nowrap" },
    header: "Owner",
    cell: ({ getValue }) =>
      getValue<string>() ? <span title={getValue<string>()}>{getValue<string>()}</span> : <span className="text-slate-400">—</span>,
  },
  {
    id: "account_type",
    accessorKey: "account_type",
    meta: { label: "Type", className: "text-xs" },
    header: "Type",
  },
  {
    id: "account_status",
    accessorKey: "account_status",
    meta: { label: "Status" },
    header: "Status",
    cell: ({ getValue }) => <StatusBadge status={getValue<string>()} />,
  },
  {
    id: "trading_permissions",
    accessorKey: "trading_permissions",
    meta: { label: "Permissions" },
    header: "Permissions",
    cell: ({ row }) => <PermissionList permissions={row.original.trading_permissions} />,
  },
  {
    id: "option_level",
    accessorKey: "option_level",
    meta: { label: "Option level", className: "text-xs" },
    header: "Option lvl",
    cell: ({ getValue }) => getValue<string>() || <span className="text-slate-400">—</span>,
  },
  {
    id: "commission_code",
    accessorKey: "commission_code",
    meta: { label: "Commission code", className: "text-xs whitespace-nowrap text-slate-600" },
    header: "Commission",
    // "COMMISSION_GROUP_3" reads as "Group 3" (the one label); the code stays in the tooltip.
    cell: ({ getValue }) => <span title={getValue<string>()}>{commissionLabel(getValue<string>())}</span>,
  },
  {
    id: "create_time",
    accessorKey: "create_time",
    // May wrap (day over time) rather than push the table past a 1280 px screen.
    meta: { label: "Created", className: "text-xs text-slate-600" },
    header: "Created",
    cell: ({ getValue }) => (getValue<string>() ? formatDateTime(getValue<string>()) : "—"),
  },
];
