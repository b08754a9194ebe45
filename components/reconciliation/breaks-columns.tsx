"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { AccountRef } from "@/components/accounts/account-ref";
import { EnumBadge } from "@/components/ui/enum-badge";
import { formatDateTime } from "@/lib/format";
import { BREAK_KIND_LABELS, BREAK_STATUS_LABELS, type BreakRow } from "@/lib/schemas/reconciliation";
import { BREAK_KIND_TONES, BREAK_STATUS_TONES, breakFigure } from "./labels";

const numeric = "text-right tabular-nums whitespace-nowrap";

/** The breaks list's columns: newest first, no other sort. */
export const breakColumns: ColumnDef<BreakRow>[] = [
  {
    id: "id",
    header: "#",
    enableHiding: false,
    meta: { label: "#", numeric: true },
    cell: ({ row }) => (
      <Link href={`/reconciliation/breaks/${row.original.id}`} className="text-blue-700 hover:underline" data-testid="break-link">
        {row.original.id}
      </Link>
    ),
  },
  {
    id: "kind",
    header: "Kind",
    meta: { label: "Kind" },
    cell: ({ row }) => <EnumBadge value={row.original.kind} labels={BREAK_KIND_LABELS} tones={BREAK_KIND_TONES} />,
  },
  {
    id: "account",
    header: "Account",
    meta: { label: "Account", className: "font-mono text-xs whitespace-nowrap" },
    cell: ({ row }) => (row.original.accountId ? <AccountRef id={row.original.accountId} number={row.original.accountNumber} /> : "—"),
  },
  {
    id: "what",
    header: "Currency / symbol",
    meta: { label: "Currency / symbol", className: "text-xs whitespace-nowrap" },
    cell: ({ row }) => row.original.currency ?? row.original.symbol ?? "—",
  },
  {
    id: "desk",
    header: "Books",
    meta: { label: "Books", numeric: true, className: numeric },
    cell: ({ row }) => breakFigure(row.original, row.original.deskValue),
  },
  {
    id: "upstream",
    header: "Upstream",
    meta: { label: "Upstream", numeric: true, className: numeric },
    cell: ({ row }) => breakFigure(row.original, row.original.upstreamValue),
  },
  {
    id: "difference",
    header: "Difference",
    meta: { label: "Difference", numeric: true, className: `${numeric} font-medium` },
    cell: ({ row }) => <span className="text-red-700">{breakFigure(row.original, row.original.difference)}</span>,
  },
  {
    id: "status",
    header: "Status",
    meta: { label: "Status" },
    cell: ({ row }) => <EnumBadge value={row.original.status} labels={BREAK_STATUS_LABELS} tones={BREAK_STATUS_TONES} />,
  },
  {
    id: "assigned",
    header: "Assigned to",
    meta: { label: "Assigned to", className: "text-xs break-all" },
    cell: ({ row }) => row.original.assignedTo ?? <span className="text-slate-400">nobody</span>,
  },
  {
    id: "seen",
    header: "Opened · last seen",
    meta: { label: "Opened · last seen", className: "text-xs whitespace-nowrap" },
    cell: ({ row }) => (
      <>
        <div>{formatDateTime(row.original.openedAt)}</div>
        <div className="text-[11px] text-slate-500">
          run {row.original.firstRunId}
          {row.original.lastRunId !== row.original.firstRunId ? ` · last seen in run ${row.original.lastRunId}` : ""}
        </div>
      </>
    ),
  },
];
