"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { AccountRef } from "@/components/accounts/account-ref";
import { EnumBadge } from "@/components/ui/enum-badge";
import { formatDateTime } from "@/lib/format";
import { ALERT_STATUS_LABELS, type AlertRow } from "@/lib/schemas/surveillance";
import { ALERT_STATUS_TONES } from "./alert-labels";

/** The queue's columns: newest first, no other sort. */
export const alertColumns: ColumnDef<AlertRow>[] = [
  {
    id: "id",
    header: "#",
    enableHiding: false,
    meta: { label: "#", numeric: true },
    cell: ({ row }) => (
      <Link href={`/alerts/${row.original.id}`} className="text-blue-700 hover:underline" data-testid="alert-link">
        {row.original.id}
      </Link>
    ),
  },
  {
    id: "raised",
    header: "Raised",
    meta: { label: "Raised", className: "text-xs whitespace-nowrap" },
    cell: ({ row }) => formatDateTime(row.original.raisedAt),
  },
  { id: "rule", header: "Rule", meta: { label: "Rule", className: "text-xs" }, cell: ({ row }) => row.original.ruleName },
  {
    id: "account",
    header: "Account",
    meta: { label: "Account", className: "font-mono text-xs" },
    cell: ({ row }) => (row.original.accountId ? <AccountRef id={row.original.accountId} number={row.original.accountNumber} /> : "—"),
  },
  { id: "summary", header: "What", meta: { label: "What", className: "text-xs max-w-md" }, cell: ({ row }) => row.original.summary },
  {
    id: "status",
    header: "Status",
    meta: { label: "Status" },
    cell: ({ row }) => <EnumBadge value={row.original.status} tones={ALERT_STATUS_TONES} labels={ALERT_STATUS_LABELS} />,
  },
  {
    id: "decided",
    header: "Decided",
    meta: { label: "Decided", className: "text-xs" },
    cell: ({ row }) =>
      row.original.decidedAt ? (
        <>
          <div>{row.original.decidedBy}</div>
          <div className="text-[11px] text-slate-500">{formatDateTime(row.original.decidedAt)}</div>
        </>
      ) : (
        "—"
      ),
  },
];
