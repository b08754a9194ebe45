"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { formatDateTime } from "@/lib/format";
import type { AccountRow } from "@/lib/schemas/virtual-account-view";
import { PermissionList, StatusBadge } from "./labels";

/** "2026-10-01 09:39" (UTC): dense enough for a table; the tooltip has the full time. */
const shortTime = (iso: string) => (iso ? iso.slice(0, 16).replace("T", " ") : "—");

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
      <Link href={`/accounts/${row.original.account_id}`} prefetch={false} className="font-mono text-xs font-medium text-blue-700 hover:underline">
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
    meta: { label: "Owner", className: "whitespace-nowrap" },
    header: "Owner",
    cell: ({ getValue }) => (getValue<string>() ? getValue<string>() : <span className="text-slate-400">—</span>),
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
    // "COMMISSION_GROUP_3" reads as "Group 3"; the full code stays in the tooltip.
    cell: ({ getValue }) => <span title={getValue<string>()}>{getValue<string>().replace(/^COMMISSION_GROUP_/, "Group ") || "—"}</span>,
  },
  {
    id: "create_time",
    accessorKey: "create_time",
    meta: { label: "Created", className: "text-xs whitespace-nowrap text-slate-600" },
    header: "Created (UTC)",
    cell: ({ getValue }) => <span title={getValue<string>() ? formatDateTime(getValue<string>()) : undefined}>{shortTime(getValue<string>())}</span>,
  },
];
