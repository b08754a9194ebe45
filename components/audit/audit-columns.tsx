"use client";
import type { ColumnDef } from "@tanstack/react-table";
import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/lib/format";
import type { AuditListRow } from "@/lib/schemas/audit";

const OUTCOME_TONE = { success: "green", failure: "red", denied: "amber", held: "slate" } as const;

/**
 * Entries whose success is bad news for someone: recording a lockout worked, but the badge says what happened to
 * the account, in the warning's colour, not a green "success".
 */
const WARNING_ACTIONS: Record<string, string> = { "auth.lockout": "locked out" };

/** The audit trail's columns; "#", Actor and Action sort (in SQL, see AUDIT_SORTABLE). */
export const auditColumns: ColumnDef<AuditListRow>[] = [
  { id: "seq", accessorKey: "seq", header: "#", enableHiding: false, meta: { label: "#", numeric: true, className: "text-slate-500" } },
  {
    id: "at",
    header: "Time",
    meta: { label: "Time", className: "text-xs whitespace-nowrap" },
    cell: ({ row }) => formatDateTime(row.original.at),
  },
  {
    id: "actor",
    accessorKey: "actorEmail",
    header: "Actor",
    meta: { label: "Actor" },
    cell: ({ row }) => (
      <>
        <div className="text-xs">{row.original.actorEmail ?? "—"}</div>
        <div className="text-[11px] text-slate-500">{row.original.actorRole ?? ""}</div>
      </>
    ),
  },
  { id: "action", accessorKey: "action", header: "Action", enableHiding: false, meta: { label: "Action", className: "font-mono text-xs" } },
  {
    id: "target",
    header: "Target",
    meta: { label: "Target", className: "max-w-40 truncate font-mono text-xs" },
    cell: ({ row }) => <span title={row.original.target ?? undefined}>{row.original.target ?? "—"}</span>,
  },
  {
    id: "outcome",
    header: "Outcome",
    meta: { label: "Outcome" },
    cell: ({ row }) => (
      <>
        {row.original.outcome === "success" && WARNING_ACTIONS[row.original.action] ? (
          <Badge tone="amber">{WARNING_ACTIONS[row.original.action]}</Badge>
        ) : (
          <Badge tone={OUTCOME_TONE[row.original.outcome]}>{row.original.outcome}</Badge>
        )}
        {row.original.errorCode ? <div className="mt-0.5 font-mono text-[11px] text-slate-500">{row.original.errorCode}</div> : null}
      </>
    ),
  },
  {
    id: "upstream",
    header: "Upstream request · key",
    meta: { label: "Upstream request · key", className: "font-mono text-[11px]" },
    cell: ({ row }) => (
      <>
        <div title="Upstream request id">{row.original.upstreamRequestId ?? "—"}</div>
        {row.original.idempotencyKey ? (
          <div className="text-slate-500" title="Idempotency key">
            {row.original.idempotencyKey}
          </div>
        ) : null}
      </>
    ),
  },
  {
    id: "client",
    header: "Client",
    meta: { label: "Client", className: "max-w-36 text-[11px] text-slate-500" },
    cell: ({ row }) => (
      <>
        <div>{row.original.clientIp ?? "—"}</div>
        <div className="truncate" title={row.original.userAgent ?? undefined}>
          {row.original.userAgent ?? ""}
        </div>
      </>
    ),
  },
  {
    id: "input",
    header: "Input",
    meta: { label: "Input", className: "text-xs" },
    cell: ({ row }) =>
      row.original.input === null ? (
        "—"
      ) : (
        <details>
          <summary className="cursor-pointer text-blue-700">View</summary>
          <pre className="mt-1 max-w-md overflow-x-auto rounded bg-slate-50 p-2 text-[11px]">{JSON.stringify(row.original.input, null, 2)}</pre>
        </details>
      ),
  },
];
