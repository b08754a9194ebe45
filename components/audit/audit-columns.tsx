"use client";
import type { ColumnDef } from "@tanstack/react-table";
import Link from "next/link";
import { AuditTarget } from "./audit-target";
import { useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/lib/format";
import { CHANNEL_LABELS, type AuditListRow } from "@/lib/schemas/audit";

const OUTCOME_TONE = { success: "green", failure: "red", denied: "amber", held: "slate" } as const;

/**
 * Entries whose success is bad news for someone: recording a lockout worked, but the badge says what happened to
 * the account, in the warning's colour, not a green "success".
 */
const WARNING_ACTIONS: Record<string, string> = { "auth.lockout": "locked out" };

/** The audit trail's columns; "#", Actor and Action sort (in SQL, see AUDIT_SORTABLE). */
export const auditColumns: ColumnDef<AuditListRow>[] = [
  {
    id: "seq",
    accessorKey: "seq",
    header: "#",
    enableHiding: false,
    meta: { label: "#", numeric: true },
    // The entry's detail: every column, the whole input, its hashes and the entries around it.
    cell: ({ row }) => (
      <Link
        href={`/audit/${row.original.seq}`}
        prefetch={false}
        className="text-blue-700 hover:underline"
        aria-label={`Entry ${row.original.seq}`}
      >
        {row.original.seq}
      </Link>
    ),
  },
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
        <div className="text-[11px] text-slate-500">
          {row.original.actorRole ?? ""}
          {row.original.channel && <span data-testid="audit-channel"> · via {CHANNEL_LABELS[row.original.channel]}</span>}
        </div>
      </>
    ),
  },
  {
    id: "action",
    accessorKey: "action",
    header: "Action",
    enableHiding: false,
    meta: { label: "Action", className: "font-mono text-xs" },
    // Long names (an assistant's `tools.update_watchlist_instruments`) wrap at their width instead of widening the table.
    cell: ({ row }) => <div className="max-w-44 [overflow-wrap:anywhere]">{row.original.action}</div>,
  },
  {
    id: "target",
    header: "Target",
    meta: { label: "Target", className: "max-w-36 font-mono text-xs" },
    cell: ({ row }) => <AuditTarget target={row.original.target} accountNumber={row.original.targetAccountNumber} />,
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
        {row.original.errorCode ? (
          <div className="mt-0.5 max-w-28 truncate font-mono text-[11px] text-slate-500" title={row.original.errorCode}>
            {row.original.errorCode}
          </div>
        ) : null}
      </>
    ),
  },
  {
    id: "upstream",
    header: "Upstream",
    meta: { label: "Upstream request · key", className: "font-mono text-[11px]" },
    cell: ({ row }) => (
      <div className="max-w-28">
        <div
          className="truncate"
          title={row.original.upstreamRequestId ? `Upstream request id ${row.original.upstreamRequestId}` : "Upstream request id"}
        >
          {row.original.upstreamRequestId ?? "—"}
        </div>
        {row.original.idempotencyKey ? (
          <div className="truncate text-slate-500" title={`Idempotency key ${row.original.idempotencyKey}`}>
            {row.original.idempotencyKey}
          </div>
        ) : null}
      </div>
    ),
  },
  {
    id: "client",
    header: "Client",
    meta: { label: "Client", className: "max-w-28 text-[11px] text-slate-500" },
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
      row.original.input === null ? "—" : <AuditInput seq={row.original.seq} action={row.original.action} input={row.original.input} />,
  },
];

/** The entry's stored input, opened in a dialog over the page: rows keep their height. */
function AuditInput({ seq, action, input }: { seq: number; action: string; input: unknown }) {
  const ref = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="text-blue-700 hover:underline" onClick={() => ref.current?.showModal()} aria-haspopup="dialog">
        View
      </button>
      <dialog
        ref={ref}
        aria-label={`Input of entry ${seq}`}
        className="m-auto w-[min(48rem,90vw)] rounded border border-slate-300 p-0 shadow-xl backdrop:bg-slate-900/30"
        onClick={(e) => e.target === e.currentTarget && ref.current?.close()}
      >
        <header className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
          <h2 className="text-sm font-semibold text-slate-800">
            Entry {seq} · <span className="font-mono">{action}</span>
          </h2>
          <button type="button" className="text-sm text-slate-600 hover:underline" onClick={() => ref.current?.close()}>
            Close
          </button>
        </header>
        <pre className="max-h-[70vh] overflow-auto p-3 text-xs whitespace-pre-wrap break-all">{JSON.stringify(input, null, 2)}</pre>
      </dialog>
    </>
  );
}
