"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { EnumBadge } from "@/components/ui/enum-badge";
import type { Tone } from "@/components/ui/badge";
import { PnL } from "@/components/ui/money";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatQuantity } from "@/lib/money";
import { ACTIVITY_TYPE_LABELS, type ActivityRow } from "@/lib/schemas/activity-list";
import { SymbolLink } from "@/components/instruments/symbol-link";

const shortTime = (iso: string) => iso.slice(0, 19).replace("T", " ");
const dash = <span className="text-slate-400">—</span>;

/** Money in is green, money out red, the rest neutral; an unknown type is violet and raw (EnumBadge). */
export const ACTIVITY_TYPE_TONES: Record<keyof typeof ACTIVITY_TYPE_LABELS, Tone> = {
  DEPOSIT: "green",
  WITHDRAW: "red",
  TRADE: "blue",
  EXECUTION: "blue",
  DIVIDENDS: "green",
  INTERESTS: "green",
  FEES: "amber",
  TAX: "amber",
  JOURNAL: "slate",
  TRANSFER: "slate",
  ADJUSTMENT: "amber",
  ALLOCATION: "slate",
  OPTION_EA: "blue",
  REORGANIZATION: "slate",
  SUBSCRIBE: "slate",
  OTHER: "slate",
};

/**
 * The explorer's columns; ids are the URL's hidden-column names. None sorts: rows are newest first, the one order
 * the desk's keyset pages (and the upstream's) hold.
 */
export const activityColumns: ColumnDef<ActivityRow>[] = [
  {
    id: "time",
    accessorKey: "bizTime",
    meta: { label: "Time", className: "text-xs whitespace-nowrap tabular-nums" },
    header: "Time (UTC)",
    enableHiding: false,
    cell: ({ row }) => <span title={formatDateTime(row.original.bizTime)}>{shortTime(row.original.bizTime)}</span>,
  },
  {
    id: "account",
    accessorKey: "accountNumber",
    meta: { label: "Account", className: "whitespace-nowrap" },
    header: "Account",
    cell: ({ row }) => (
      <Link
        href={`/accounts/${encodeURIComponent(row.original.accountId)}`}
        prefetch={false}
        className="font-mono text-xs text-blue-700 hover:underline"
        title={row.original.accountId}
      >
        {row.original.accountNumber ?? row.original.accountId}
      </Link>
    ),
  },
  {
    id: "type",
    accessorKey: "type",
    meta: { label: "Type", className: "whitespace-nowrap" },
    header: "Type",
    cell: ({ row }) => <EnumBadge value={row.original.type} tones={ACTIVITY_TYPE_TONES} labels={ACTIVITY_TYPE_LABELS} />,
  },
  {
    id: "subType",
    accessorKey: "subType",
    meta: { label: "Sub-type", className: "text-xs whitespace-nowrap text-slate-600" },
    header: "Sub-type",
    cell: ({ row }) => row.original.subType ?? dash,
  },
  {
    id: "symbol",
    accessorKey: "symbol",
    meta: { label: "Symbol", className: "whitespace-nowrap font-mono text-xs" },
    header: "Symbol",
    cell: ({ row }) =>
      row.original.symbol ? (
        <>
          <SymbolLink market={row.original.market} symbol={row.original.symbol} />
          {row.original.market ? <span className="text-slate-500"> · {row.original.market}</span> : null}
        </>
      ) : (
        dash
      ),
  },
  {
    id: "quantity",
    accessorKey: "quantity",
    meta: { label: "Quantity", numeric: true, className: "text-xs" },
    header: "Quantity",
    cell: ({ row }) => (row.original.quantity ? formatQuantity(row.original.quantity) : ""),
  },
  {
    id: "net",
    accessorKey: "netAmount",
    meta: { label: "Net amount", numeric: true, className: "whitespace-nowrap" },
    header: "Net amount",
    enableHiding: false,
    cell: ({ row }) => <PnL value={row.original.netAmount}>{formatMoney(row.original.netAmount, row.original.currency)}</PnL>,
  },
  {
    id: "description",
    accessorKey: "description",
    meta: { label: "Description", className: "max-w-80 truncate text-xs text-slate-600" },
    header: "Description",
    cell: ({ row }) => <span title={row.original.description ?? undefined}>{row.original.description ?? ""}</span>,
  },
];
