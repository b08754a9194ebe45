"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { AccountRef } from "@/components/accounts/account-ref";
import { EnumBadge } from "@/components/ui/enum-badge";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatQuantity } from "@/lib/money";
import { MOVEMENT_STATUS_LABELS, movementHref, movementTypeLabel, type MovementRow } from "@/lib/schemas/movement-list";
import { MOVEMENT_STATUS_TONES } from "./movement-labels";

const shortTime = (iso: string) => iso.slice(0, 16).replace("T", " ");
const dash = <span className="text-slate-400">—</span>;

/** Linked to the account (a click on the rest of the row opens the movement). */
const AccountId = ({ id, number }: { id: string; number: string | null }) => <AccountRef id={id} number={number} />;

/** Where it moved: "from / → to" for journals, the account for the rest. */
function Route({ r }: { r: MovementRow }) {
  if (r.fromAccount && r.toAccount) {
    return (
      <span className="flex flex-col">
        <AccountId id={r.fromAccount} number={r.fromAccountNumber} />
        <span className="flex items-center gap-1">
          <span className="text-xs text-slate-400" aria-label="to">
            →
          </span>
          <AccountId id={r.toAccount} number={r.toAccountNumber} />
        </span>
      </span>
    );
  }
  return r.accountId ? <AccountId id={r.accountId} number={r.accountNumber} /> : dash;
}

/** What moved: the amount with its currency, what an exchange bought under it, or a position journal's symbol and quantity. */
function What({ r }: { r: MovementRow }) {
  if (r.symbol) {
    return (
      <span className="whitespace-nowrap" data-testid="movement-position">
        <span className="font-medium">{r.symbol}</span> × {formatQuantity(r.quantity)}
      </span>
    );
  }
  return (
    <span className="flex flex-col items-end whitespace-nowrap">
      <span data-testid="movement-amount">{r.amount ? formatMoney(r.amount, r.currency ?? undefined) : dash}</span>
      {r.toAmount ? (
        <span className="text-xs text-slate-600" data-testid="movement-to-amount" title="Bought">
          → {formatMoney(r.toAmount, r.toCurrency ?? undefined)}
        </span>
      ) : null}
    </span>
  );
}

/** A free text cut to `width` (the whole of it in its title), or a dash. */
function Clipped({ text, width }: { text: string | null | undefined; width: string }) {
  if (!text) return dash;
  return (
    <span className={`block truncate ${width}`} title={text}>
      {text}
    </span>
  );
}

/**
 * The movements table's columns; ids are the URL's hidden-column names. None sorts: the list is newest first by
 * time, the one order its keyset pages hold. Dense enough for 1280 px: the client request id sits under the type,
 * an exchange's bought amount under its amount, a position journal's symbol and quantity in the amount's place.
 */
export const movementColumns: ColumnDef<MovementRow>[] = [
  {
    id: "time",
    accessorKey: "createdAt",
    meta: { label: "Time", className: "text-xs whitespace-nowrap tabular-nums" },
    header: "Time (UTC)",
    enableHiding: false,
    cell: ({ row }) => (
      <Link
        href={movementHref(row.original.kind, row.original.clientRequestId)}
        prefetch={false}
        title={formatDateTime(row.original.createdAt)}
        className="text-blue-700 hover:underline"
      >
        {shortTime(row.original.createdAt)}
      </Link>
    ),
  },
  {
    id: "type",
    accessorKey: "kind",
    meta: { label: "Type and client request id", className: "whitespace-nowrap" },
    header: "Type · client request id",
    cell: ({ row }) => (
      <span className="flex flex-col">
        <span>{movementTypeLabel(row.original.kind, row.original.direction)}</span>
        <span className="font-mono text-[11px] text-slate-500">{row.original.clientRequestId}</span>
      </span>
    ),
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
    meta: { label: "Amount", numeric: true, className: "tabular-nums" },
    header: "Amount",
    cell: ({ row }) => <What r={row.original} />,
  },
  {
    id: "requester",
    accessorKey: "requestedBy",
    meta: { label: "Requester", className: "text-xs" },
    header: "Requester",
    cell: ({ row }) => <Clipped text={row.original.requestedBy} width="max-w-36" />,
  },
  {
    id: "reason",
    accessorKey: "reason",
    meta: { label: "Reason", className: "text-xs text-slate-700" },
    header: "Reason",
    cell: ({ row }) => <Clipped text={row.original.reason} width="max-w-48 2xl:max-w-md" />,
  },
];
