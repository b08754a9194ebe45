import { AccountRef } from "@/components/accounts/account-ref";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";
import { BREAK_KIND_LABELS, BREAK_STATUS_LABELS, type BreakDetail } from "@/lib/schemas/reconciliation";
import { BREAK_KIND_TONES, BREAK_STATUS_TONES, breakFigure } from "./labels";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-3 py-1 text-sm">
      <dt className="w-36 shrink-0 text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

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
        <dl data-testid="break-facts">
          <Row label="Status">
            <span data-testid="break-status">
              <EnumBadge value={item.status} labels={BREAK_STATUS_LABELS} tones={BREAK_STATUS_TONES} />
            </span>
          </Row>
          <Row label="Kind">
            <EnumBadge value={item.kind} labels={BREAK_KIND_LABELS} tones={BREAK_KIND_TONES} />
          </Row>
          <Row label="What">{item.summary}</Row>
          <Row label="Account">{item.accountId ? <AccountRef id={item.accountId} number={item.accountNumber} /> : "—"}</Row>
          {item.kind !== "movement" ? (
            <>
              <Row label="Books">
                <span className="tabular-nums">{breakFigure(item, item.deskValue)}</span>
              </Row>
              <Row label="Upstream">
                <span className="tabular-nums">{breakFigure(item, item.upstreamValue)}</span>
              </Row>
              <Row label="Difference">
                <span className="font-medium text-red-700 tabular-nums" data-testid="break-difference">
                  {breakFigure(item, item.difference)}
                </span>
              </Row>
            </>
          ) : null}
          <Row label="Found">
            {formatDateTime(item.openedAt)} by run {item.firstRunId}
            {item.lastRunId !== item.firstRunId ? `; last seen in run ${item.lastRunId}` : ""}
          </Row>
          <Row label="Assigned to">{item.assignedTo ?? "nobody"}</Row>
          {item.closedAt ? (
            <>
              <Row label="Closed">
                {item.closedBy} on {formatDateTime(item.closedAt)}
              </Row>
              <Row label="Resolution">
                <span className="whitespace-pre-wrap" data-testid="break-resolution">
                  {item.resolution}
                </span>
              </Row>
            </>
          ) : null}
        </dl>
      </Panel>
      <Panel title="Evidence">
        <dl data-testid="break-evidence">
          {Object.entries(item.evidence).map(([key, value]) => (
            <Row key={key} label={EVIDENCE_LABELS[key] ?? key}>
              <EvidenceValue value={value} />
            </Row>
          ))}
        </dl>
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
