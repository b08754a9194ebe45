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
        <pre className="max-h-80 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap" data-testid="break-evidence">
          {JSON.stringify(item.evidence, null, 2)}
        </pre>
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
