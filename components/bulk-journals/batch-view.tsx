"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { RefreshOnChange } from "@/components/live/refresh-on-change";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Fields } from "@/components/ui/detail-fields";
import { Mono } from "@/components/ui/mono";
import { Panel } from "@/components/ui/page";
import { RowsTable } from "@/components/ui/rows-table";
import { APPROVAL_STATUS_LABELS, APPROVAL_STATUS_TONES, type ApprovalStatus } from "@/lib/schemas/approvals";
import type { BatchView, BulkRowView } from "@/lib/schemas/bulk-journals";
import { enumLabel } from "@/lib/enums";
import { MOVEMENT_STATUS_LABELS } from "@/lib/schemas/movement-list";
import { formatDateTime } from "@/lib/format";
import { formatMoney, formatQuantity } from "@/lib/money";
import { retryBulkJournalRowsAction } from "@/server/actions/movements";

type Shown = "sent" | "failed" | "sending" | "queued" | "not-sent";
const SHOWN: Record<Shown, { label: string; tone: Tone }> = {
  sent: { label: "Sent", tone: "green" },
  failed: { label: "Failed", tone: "red" },
  sending: { label: "Sending", tone: "blue" },
  queued: { label: "Queued", tone: "blue" },
  "not-sent": { label: "Not sent", tone: "slate" },
};

/** A row as the page says it: not yet sent rows are queued while the batch executes, else not sent. */
function shownOf(row: BulkRowView, approval: ApprovalStatus | undefined): Shown {
  if (row.status === "pending") return approval === "executing" ? "queued" : "not-sent";
  return row.status;
}

const FILTERS = ["all", "failed", "sent", "not-sent"] as const;
type Filter = (typeof FILTERS)[number];
const FILTER_LABELS: Record<Filter, string> = { all: "All", failed: "Failed", sent: "Sent", "not-sent": "Not sent" };

/**
 * A batch's rows with their results, read again on every batch and approval notice (live while it executes), and
 * "Retry failed rows" for staff who may move money once the approved batch's execution is over.
 */
export function BatchResults({ view, canRetry }: { view: BatchView; canRetry: boolean }) {
  const router = useRouter();
  const [filter, setFilter] = useState<Filter>("all");
  const { run, busy, banner } = useAction();
  const approval = view.approval?.status;
  const shown = useMemo(() => view.rows.map((r) => ({ row: r, shown: shownOf(r, approval) })), [view.rows, approval]);
  const count = (s: Shown) => shown.filter((r) => r.shown === s).length;
  const settled = approval === "executed" || approval === "failed";
  // Once the execution is over, a row it never reached is retried with the failed ones.
  const failed = count("failed") + (settled ? count("not-sent") : 0);
  const rows = shown.filter((r) => filter === "all" || r.shown === filter || (filter === "not-sent" && r.shown === "queued"));
  const account = (id: string) => view.accountNumbers[id] ?? id;

  return (
    <div className="space-y-3">
      <RefreshOnChange topics={["bulk-journal", "approval"]} />
      <div className="grid gap-3 xl:grid-cols-2">
        <Panel title="Batch">
          <Fields
            items={[
              ["Batch", <Mono key="id">{view.id}</Mono>],
              [
                "Approval",
                view.approval ? (
                  <span key="a" className="inline-flex items-center gap-2">
                    <Badge tone={APPROVAL_STATUS_TONES[view.approval.status]}>{APPROVAL_STATUS_LABELS[view.approval.status]}</Badge>
                    <Link href={`/approvals/${view.approval.id}`} className="text-blue-700 hover:underline" prefetch={false}>
                      Request
                    </Link>
                  </span>
                ) : (
                  "—"
                ),
              ],
              ["Uploaded by", view.makerEmail],
              ["Uploaded", formatDateTime(view.createdAt)],
              ["Last sent", view.lastRunAt ? formatDateTime(view.lastRunAt) : "—"],
            ]}
          />
          {view.approval?.error ? <p className="mt-2 text-sm text-red-800">{view.approval.error}</p> : null}
        </Panel>
        <Panel title="Results">
          <dl className="grid grid-cols-4 gap-3 text-sm" data-testid="bulk-counts">
            {(
              [
                ["Rows", view.rows.length, "text-slate-900"],
                ["Sent", count("sent"), "text-emerald-700"],
                ["Failed", count("failed"), count("failed") ? "text-red-700" : "text-slate-600"],
                ["Not sent", count("not-sent") + count("queued") + count("sending"), "text-slate-600"],
              ] as const
            ).map(([label, n, tone]) => (
              <div key={label} data-count={label}>
                <dt className="text-xs text-slate-500">{label}</dt>
                <dd className={`text-xl font-semibold tabular-nums ${tone}`}>{n.toLocaleString("en-US")}</dd>
              </div>
            ))}
          </dl>
          {canRetry && settled && failed > 0 ? (
            <div className="mt-3 flex items-center gap-3">
              <Button
                disabled={busy}
                onClick={() =>
                  run(() => retryBulkJournalRowsAction({ batch_id: view.id }), {
                    success: (t) => `Sent again: ${t.sent} sent, ${t.failed} failed.`,
                    onSuccess: () => router.refresh(),
                  })
                }
              >
                {busy ? "Sending…" : `Retry failed rows (${failed})`}
              </Button>
              <span className="text-xs text-slate-500">Each with its same request id: a row the upstream has is not sent again.</span>
            </div>
          ) : null}
          <div className="mt-2">
            <FormBanner banner={banner} />
          </div>
        </Panel>
      </div>
      <div className="flex items-center gap-1" role="group" aria-label="Show rows">
        {FILTERS.map((f) => (
          <Button
            key={f}
            size="sm"
            variant={filter === f ? "primary" : "secondary"}
            aria-pressed={filter === f}
            onClick={() => setFilter(f)}
          >
            {FILTER_LABELS[f]}
          </Button>
        ))}
      </div>
      <RowsTable
        label="Rows"
        rows={rows}
        rowKey={(r) => String(r.row.line)}
        rowProps={(r) => ({ "data-line": String(r.row.line), "data-status": r.shown })}
        empty="No rows."
        columns={[
          { head: "Line", cell: (r) => r.row.line, numeric: true, className: "w-14 tabular-nums" },
          { head: "Kind", cell: (r) => (r.row.kind === "CASH_JOURNAL" ? "Cash" : "Position"), className: "whitespace-nowrap" },
          { head: "From", cell: (r) => <Mono>{account(r.row.fromAccount)}</Mono> },
          { head: "To", cell: (r) => <Mono>{account(r.row.toAccount)}</Mono> },
          {
            head: "Amount",
            numeric: true,
            className: "tabular-nums whitespace-nowrap",
            cell: (r) =>
              r.row.kind === "CASH_JOURNAL"
                ? formatMoney(r.row.amount, r.row.currency ?? undefined)
                : `${formatQuantity(r.row.quantity)} ${r.row.symbol ?? ""}`,
          },
          {
            head: "Request id",
            cell: (r) =>
              r.row.status === "sent" ? (
                <Link
                  href={`/movements/${r.row.kind}/${encodeURIComponent(r.row.clientRequestId)}`}
                  className="font-mono text-xs whitespace-nowrap text-blue-700 hover:underline"
                  prefetch={false}
                >
                  {r.row.clientRequestId}
                </Link>
              ) : (
                <span className="font-mono text-xs whitespace-nowrap">{r.row.clientRequestId}</span>
              ),
          },
          { head: "Status", cell: (r) => <Badge tone={SHOWN[r.shown].tone}>{SHOWN[r.shown].label}</Badge> },
          {
            head: "Upstream",
            cell: (r) =>
              r.row.upstreamStatus ? enumLabel(MOVEMENT_STATUS_LABELS, r.row.upstreamStatus) : <span className="text-slate-400">—</span>,
            className: "whitespace-nowrap text-xs text-slate-700",
          },
          {
            head: "Message",
            cell: (r) =>
              r.row.message ? <span className={r.row.status === "failed" ? "text-red-800" : "text-slate-600"}>{r.row.message}</span> : null,
          },
        ]}
      />
    </div>
  );
}
