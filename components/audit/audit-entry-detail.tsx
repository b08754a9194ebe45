import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { Panel } from "@/components/ui/page";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { formatDateTime } from "@/lib/format";
import { CHANNEL_LABELS, type AuditEntryView } from "@/lib/schemas/audit";

const OUTCOME_TONE = { success: "green", failure: "red", denied: "amber", held: "slate" } as const;

/** The desk's pages for a target: an account, an order's account in the blotter, an approval request, an alert. */
export function targetLinks(target: string | null, accountNumber?: string): { href: string; label: string }[] {
  if (!target) return [];
  const [kind, first, second] = target.split(":");
  if (!first) return [];
  const account = (id: string) => ({ href: `/accounts/${encodeURIComponent(id)}`, label: `Account ${accountNumber ?? id}` });
  switch (kind) {
    case "account":
      return [account(first)];
    case "order":
      return [
        account(first),
        { href: `/orders?account=${encodeURIComponent(first)}`, label: `Orders of the account (order ${second ?? ""})` },
      ];
    case "approval":
      return [{ href: `/approvals/${encodeURIComponent(first)}`, label: `Approval request ${first}` }];
    case "alert":
      return [{ href: `/alerts/${encodeURIComponent(first)}`, label: `Alert #${first}` }];
    default:
      return [];
  }
}

function Row({ label, children, mono }: { label: string; children: ReactNode; mono?: boolean }) {
  return (
    <div className="grid grid-cols-[11rem_minmax(0,1fr)] gap-3 border-b border-slate-100 py-1.5 text-sm last:border-b-0">
      <dt className="text-slate-500">{label}</dt>
      <dd className={`min-w-0 break-all ${mono ? "font-mono text-xs" : ""}`}>{children ?? "—"}</dd>
    </div>
  );
}

/** Every column of one entry, its redacted input pretty-printed, its links and its hashes. */
export function AuditEntryDetail({ entry, accountNumber }: { entry: AuditEntryView; accountNumber?: string }) {
  const links = targetLinks(entry.target, accountNumber);
  const target = entry.target ? (
    <>
      <Link
        href={`/audit?target=${encodeURIComponent(entry.target)}`}
        className="text-blue-700 hover:underline"
        title="Every entry of this target"
      >
        {entry.target}
      </Link>
      {links.map((l) => (
        <div key={l.href} className="font-sans">
          <Link href={l.href} prefetch={false} className="text-blue-700 hover:underline" data-testid="audit-target-link">
            {l.label} →
          </Link>
        </div>
      ))}
    </>
  ) : null;
  const requestId = entry.upstreamRequestId ? (
    <Link
      href={`/audit?request=${encodeURIComponent(entry.upstreamRequestId)}`}
      className="text-blue-700 hover:underline"
      data-testid="audit-request-id"
    >
      {entry.upstreamRequestId}
    </Link>
  ) : null;
  /** Label, value, and whether the value is an identifier shown in monospace. */
  const rows: [string, ReactNode, "mono"?][] = [
    ["#", entry.seq],
    ["Time", formatDateTime(entry.at)],
    ["Actor", entry.actorEmail],
    ["Role", entry.actorRole],
    ["Actor id", entry.actorId, "mono"],
    ["Action", entry.action, "mono"],
    ["Target", target, "mono"],
    [
      "Outcome",
      <Badge key="outcome" tone={OUTCOME_TONE[entry.outcome]}>
        {entry.outcome}
      </Badge>,
    ],
    ["Error code", entry.errorCode, "mono"],
    ["Upstream request id", requestId, "mono"],
    ["Idempotency key", entry.idempotencyKey, "mono"],
    ["Client IP", entry.clientIp, "mono"],
    ["Channel", entry.channel ? CHANNEL_LABELS[entry.channel] : "Desk pages"],
    ["Access token", entry.tokenId, "mono"],
    ["User agent", entry.userAgent ? <span className="text-xs">{entry.userAgent}</span> : null],
    ["Hash", entry.hash, "mono"],
    ["Previous hash", entry.prevHash, "mono"],
  ];
  return (
    <div className="grid gap-4 xl:grid-cols-2" data-testid="audit-entry">
      <Panel title="Entry">
        <dl>
          {rows.map(([label, value, mono]) => (
            <Row key={label} label={label} mono={mono === "mono"}>
              {value}
            </Row>
          ))}
        </dl>
      </Panel>
      <Panel title="Input (secrets and masked personal data removed)">
        {entry.input === null ? (
          <p className="text-sm text-slate-500">No input was recorded.</p>
        ) : (
          <pre className="max-h-[36rem] overflow-auto text-xs whitespace-pre-wrap break-all" data-testid="audit-input">
            {JSON.stringify(entry.input, null, 2)}
          </pre>
        )}
      </Panel>
    </div>
  );
}

const RELATED_COLUMNS: RowColumn<AuditEntryView>[] = [
  {
    head: "#",
    cell: (r) => (
      <Link href={`/audit/${r.seq}`} prefetch={false} className="text-blue-700 hover:underline">
        {r.seq}
      </Link>
    ),
  },
  { head: "Time", className: "text-xs whitespace-nowrap", cell: (r) => formatDateTime(r.at) },
  { head: "Actor", className: "text-xs [overflow-wrap:anywhere]", cell: (r) => r.actorEmail ?? "—" },
  { head: "Action", className: "font-mono text-xs [overflow-wrap:anywhere]", cell: (r) => r.action },
  { head: "Outcome", cell: (r) => <Badge tone={OUTCOME_TONE[r.outcome]}>{r.outcome}</Badge> },
];

/** A short list of entries beside this one, each linking to its own detail. */
export function RelatedEntries({
  title,
  rows,
  empty,
  testId,
  more,
}: {
  title: string;
  rows: AuditEntryView[];
  empty: string;
  testId: string;
  more?: { href: string; label: string };
}) {
  return (
    <Panel
      title={title}
      actions={
        more ? (
          <Link href={more.href} className="text-xs text-blue-700 hover:underline">
            {more.label}
          </Link>
        ) : null
      }
    >
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <RowsTable columns={RELATED_COLUMNS} rows={rows} rowKey={(r) => String(r.seq)} testId={testId} />
      )}
    </Panel>
  );
}
