"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { EnumBadge } from "@/components/ui/enum-badge";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatQuantity } from "@/lib/money";
import { MOVEMENT_STATUS_LABELS, movementHref, movementTypeLabel, type MovementRow } from "@/lib/schemas/movement-list";
import { MOVEMENT_STATUS_TONES } from "./movement-labels";

const shortTime = (iso: string) => iso.slice(0, 19).replace("T", " ");
const dash = <span className="text-slate-400">—</span>;
const mono = (v: string | null) => (v ? <span className="font-mono text-xs">{v}</span> : dash);

/** Where it moved: "from → to" for journals, the account (and the direction) for the rest. */
function Route({ r }: { r: MovementRow }) {
  if (r.fromAccount && r.toAccount) {
    return (
      <span className="font-mono text-xs whitespace-nowrap">
        {r.fromAccount} <span className="text-slate-400">→</span> {r.toAccount}
      </span>
    );
  }
  return mono(r.accountId);
}

/**
 * The movements table's columns; ids are the URL's hidden-column names. None sorts: the list is newest first by
 * time, the one order its keyset pages hold.
 */
export const movementColumns: ColumnDef<MovementRow>[] = [
  {
    id: "time",
    accessorKey: "createdAt",
    meta: { label: "Time", className: "text-xs whitespace-nowrap text-slate-600 tabular-nums" },
    header: "Time (UTC)",
    enableHiding: false,
    cell: ({ row }) => (
      <Link href={movementHref(row.original.kind, row.original.clientRequestId)} prefetch={false} title={formatDateTime(row.original.createdAt)} className="text-blue-700 hover:underline">
        {shortTime(row.original.createdAt)}
      </Link>
    ),
  },
  {
    id: "type",
    accessorKey: "kind",
    meta: { label: "Type", className: "whitespace-nowrap" },
    header: "Type",
    cell: ({ row }) => movementTypeLabel(row.original.kind, row.original.direction),
  },
  {
    id: "status",
    accessorKey: "status",
    meta: { label: "Status" },
    header: "Status",
    cell: ({ row }) => <EnumBadge value={row.original.status} tones={MOVEMENT_STATUS_TONES} labels={MOVEMENT_STATUS_LABELS} />,
  },
  {
    id: "accounts",
    meta: { label: "From → to / account" },
    header: "From → to / account",
    cell: ({ row }) => <Route r={row.original} />,
  },
  {
    id: "amount",
    accessorKey: "amount",
    meta: { label: "Amount", numeric: true, className: "whitespace-nowrap tabular-nums" },
    header: "Amount",
    cell: ({ row }) => (row.original.amount ? formatMoney(row.original.amount, row.original.currency ?? undefined) : dash),
  },
  {
    id: "to_amount",
    accessorKey: "toAmount",
    meta: { label: "To amount (FX)", numeric: true, className: "whitespace-nowrap tabular-nums" },
    header: "To amount",
    cell: ({ row }) => (row.original.toAmount ? formatMoney(row.original.toAmount, row.original.toCurrency ?? undefined) : dash),
  },
  {
    id: "position",
    meta: { label: "Symbol × quantity" },
    header: "Symbol × qty",
    cell: ({ row }) =>
      row.original.symbol ? (
        <span className="whitespace-nowrap">
          <span className="font-medium">{row.original.symbol}</span> × <span className="tabular-nums">{formatQuantity(row.original.quantity)}</span>
        </span>
      ) : (
        dash
      ),
  },
  {
    id: "requester",
    accessorKey: "requestedBy",
    meta: { label: "Requester", className: "text-xs whitespace-nowrap" },
    header: "Requester",
    cell: ({ row }) => row.original.requestedBy ?? dash,
  },
  {
    id: "reason",
    accessorKey: "reason",
    meta: { label: "Reason", className: "text-xs text-slate-700" },
    header: "Reason",
    cell: ({ row }) =>
      row.original.reason ? (
        <span className="block max-w-56 truncate" title={row.original.reason}>
          {row.original.reason}
        </span>
      ) : (
        dash
      ),
  },
  {
    id: "client_request_id",
    accessorKey: "clientRequestId",
    meta: { label: "Client request id" },
    header: "Client request id",
    cell: ({ row }) => mono(row.original.clientRequestId),
  },
];
