import type { ReactNode } from "react";
import { Panel } from "@/components/ui/page";
import { formatDateTime } from "@/lib/format";

/** A detail page's timeline (orders, movements): its entries oldest first, or what to say while there are none. */
export function TimelinePanel({ count, empty, children }: { count: number; empty: string; children: ReactNode }) {
  return (
    <Panel title="Timeline">
      <ol className="flex flex-col gap-1 text-sm" aria-label="Timeline">
        {children}
        {!count ? <li className="text-xs text-slate-500">{empty}</li> : null}
      </ol>
    </Panel>
  );
}

/**
 * One entry of a timeline: its badges (`children`), when it happened, where it came from with its sequence number, the
 * lines under it (`notes`), and the raw event folded away.
 */
export function TimelineEntry({
  entry: { at, seq, payload },
  source,
  notes,
  data,
  children,
}: {
  entry: { at: string; seq: number; payload: unknown };
  /** Where the entry came from, as the page names it. */
  source: string | null;
  notes?: ReactNode;
  /** data-* attributes the tests read (the entry's status or scene). */
  data: Record<`data-${string}`, string | null | undefined>;
  children: ReactNode;
}) {
  return (
    <li className="border-l-2 border-slate-200 pl-3" data-testid="timeline-entry" {...data}>
      <div className="flex flex-wrap items-center gap-2">
        {children}
        <span className="text-xs text-slate-500">{formatDateTime(at)}</span>
        <span className="text-[11px] text-slate-400">
          {source ?? "?"} · #{seq}
        </span>
      </div>
      {notes}
      {payload ? (
        <details>
          <summary className="cursor-pointer text-[11px] text-blue-700">Raw event</summary>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-[11px]">{JSON.stringify(payload, null, 2)}</pre>
        </details>
      ) : null}
    </li>
  );
}
