"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { EnumBadge } from "@/components/ui/enum-badge";
import { formatDuration } from "@/lib/format";
import { APPROVAL_STATUS_LABELS, APPROVAL_STATUS_TONES, ruleActionLabel, type ApprovalListRow } from "@/lib/schemas/approvals";

/** The inbox's columns; times are relative to the page's `now` (the server's clock), so both renders agree. */
export function approvalColumns(now: number): ColumnDef<ApprovalListRow>[] {
  return [
    {
      id: "summary",
      header: "Request",
      enableHiding: false,
      meta: { label: "Request" },
      cell: ({ row: { original: r } }) => (
        <Link href={`/approvals/${r.id}`} className="block text-blue-800 hover:underline">
          <span className="block">{r.summary}</span>
          <span className="block text-[11px] text-slate-500">{ruleActionLabel(r.ruleAction)}</span>
        </Link>
      ),
    },
    {
      id: "maker",
      header: "Maker",
      meta: { label: "Maker", className: "text-xs whitespace-nowrap" },
      cell: ({ row }) => row.original.makerEmail,
    },
    {
      id: "age",
      header: "Age",
      meta: { label: "Age", numeric: true, className: "text-xs whitespace-nowrap" },
      cell: ({ row }) => <span title={row.original.createdAt}>{formatDuration(now - Date.parse(row.original.createdAt))}</span>,
    },
    {
      id: "approvals",
      header: "Approvals",
      meta: { label: "Approvals", numeric: true, className: "whitespace-nowrap" },
      cell: ({ row: { original: r } }) => (
        <span data-testid="approval-count">
          {r.approvals} of {r.approversRequired}
        </span>
      ),
    },
    {
      id: "expires",
      header: "Expires in",
      meta: { label: "Expires in", numeric: true, className: "text-xs whitespace-nowrap" },
      cell: ({ row: { original: r } }) => {
        if (r.status !== "pending") return <span className="text-slate-400">—</span>;
        const left = Date.parse(r.expiresAt) - now;
        return (
          <span className={left < 3_600_000 ? "font-medium text-amber-800" : undefined} title={r.expiresAt}>
            {formatDuration(left)}
          </span>
        );
      },
    },
    {
      id: "status",
      header: "Status",
      meta: { label: "Status" },
      cell: ({ row }) => <EnumBadge value={row.original.status} tones={APPROVAL_STATUS_TONES} labels={APPROVAL_STATUS_LABELS} />,
    },
  ];
}
