import { AccountRef } from "@/components/accounts/account-ref";
import { EnumBadge } from "@/components/ui/enum-badge";
import type { ReactNode } from "react";
import { Fields } from "@/components/ui/detail-fields";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { BREAK_KIND_LABELS, BREAK_STATUS_LABELS, type BreakDetail } from "@/lib/schemas/reconciliation";
import { BREAK_KIND_TONES, BREAK_STATUS_TONES, breakFigure } from "./labels";

const EVIDENCE_LABELS: Record<string, string> = {
  master: "Master account",
  readAt: "Read at (first, second look)",
  books: "The books' figure",
  upstreamCash: "Upstream cash",
  upstreamPositions: "Upstream positions",
  kind: "Movement kind",
  clientRequestId: "Client request id",
  status: "Status",
  createdAt: "Made",
};

/** An evidence value in words: times as the desk shows them, lists and maps on one line each. */
function EvidenceValue({ value }: { value: unknown }) {
  if (typeof value === "boolean") return <>{value ? "yes" : "no"}</>;
  if (typeof value === "string") return <>{/^\d{4}-\d{2}-\d{2}T/.test(value) ? formatDateTime(value) : value}</>;
  if (Array.isArray(value))
    return (
      <>
        {value.map((v, i) => (
          <span key={i} className="mr-3 inline-block">
            <EvidenceValue value={v} />
          </span>
        ))}
      </>
    );
  if (value && typeof value === "object")
    return (
      <span className="tabular-nums">
        {Object.entries(value).map(([k, v]) => (
          <span key={k} className="mr-3 inline-block whitespace-nowrap">
            <span className="text-slate-500">{k}</span> {String(v)}
          </span>
        ))}
      </span>
    );
  return <>{String(value ?? "—")}</>;
}

/** One break: what differs and by how much, the run that found it and the latest that saw it, its evidence and comments. */
export function BreakFacts({ item }: { item: BreakDetail }) {
  return (
    <div className="grid gap-4 2xl:grid-cols-2">
      <Panel title="Break">
        <div data-testid="break-facts">
          <Fields
            items={[
              [
                "Status",
                <span key="s" data-testid="break-status">
                  <EnumBadge value={item.status} labels={BREAK_STATUS_LABELS} tones={BREAK_STATUS_TONES} />
                </span>,
              ],
              ["Kind", <EnumBadge key="k" value={item.kind} labels={BREAK_KIND_LABELS} tones={BREAK_KIND_TONES} />],
              ["Account", item.accountId ? <AccountRef id={item.accountId} number={item.accountNumber} /> : null],
              ["What", item.summary],
              ...(item.kind === "movement"
                ? []
                : ([
                    ["Books", breakFigure(item, item.deskValue)],
                    ["Upstream", breakFigure(item, item.upstreamValue)],
                    [
                      "Difference",
                      <span key="d" className="font-medium text-red-700" data-testid="break-difference">
                        {breakFigure(item, item.difference)}
                      </span>,
                    ],
                  ] as [string, ReactNode][])),
              [
                "Found",
                `${formatDateTime(item.openedAt)} by run ${item.firstRunId}${item.lastRunId !== item.firstRunId ? `; last seen in run ${item.lastRunId}` : ""}`,
              ],
              ["Assigned to", item.assignedTo ?? "nobody"],
              ...(item.closedAt
                ? ([
                    ["Closed", `${item.closedBy} on ${formatDateTime(item.closedAt)}`],
                    [
                      "Resolution",
                      <span key="r" className="whitespace-pre-wrap" data-testid="break-resolution">
                        {item.resolution}
                      </span>,
                    ],
                  ] as [string, ReactNode][])
                : []),
            ]}
          />
        </div>
      </Panel>
      <Panel title="Evidence">
        <div data-testid="break-evidence">
          <Fields
            items={Object.entries(item.evidence).map(([key, value]) => [
              EVIDENCE_LABELS[key] ?? key,
              <EvidenceValue key={key} value={value} />,
            ])}
          />
        </div>
      </Panel>
      <Panel title={`Comments (${item.comments.length})`}>
        {item.comments.length === 0 ? (
          <p className="text-sm text-slate-500">No comments yet.</p>
        ) : (
          <ol className="flex flex-col gap-2" data-testid="break-comments">
            {item.comments.map((c) => (
              <li key={c.id} className="rounded border border-slate-200 p-2 text-sm">
                <div className="text-xs text-slate-500">
                  {c.author} · {formatDateTime(c.at)}
                </div>
                <p className="whitespace-pre-wrap">{c.body}</p>
              </li>
            ))}
          </ol>
        )}
      </Panel>
    </div>
  );
}
