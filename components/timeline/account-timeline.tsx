import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { formatDateTime } from "@/lib/format";
import {
  TIMELINE_KIND_LABELS,
  timelineQuery,
  type TimelineEntry,
  type TimelineKind,
  type TimelinePage,
} from "@/lib/schemas/account-timeline";

const KIND_TONES: Record<TimelineKind, "green" | "red" | "amber" | "blue" | "slate" | "violet"> = {
  account: "blue",
  movement: "green",
  order: "slate",
  fill: "slate",
  approval: "amber",
  staff: "violet",
  alert: "red",
};

/**
 * The timeline as the server read it: kind chips (links that toggle the kind in the URL and go back to the newest
 * entries), the entries newest first, and keyset paging ("Older entries" carries the cursor; "Newest" drops it).
 * No client state: every change is a URL.
 */
export function AccountTimeline({
  accountId,
  page,
  readable,
  selected,
  cursor,
}: {
  accountId: string;
  page: TimelinePage;
  /** Every kind the role reads (the chips offered). */
  readable: TimelineKind[];
  /** The kinds asked for in the URL (none: all). */
  selected: TimelineKind[];
  cursor?: string;
}) {
  const base = `/accounts/${encodeURIComponent(accountId)}/timeline`;
  const toggle = (k: TimelineKind) => (selected.includes(k) ? selected.filter((s) => s !== k) : [...selected, k]);
  return (
    <div className="flex flex-col gap-3">
      <nav aria-label="Kinds" className="flex flex-wrap items-center gap-2">
        <span className="text-xs font-medium text-slate-600">Show:</span>
        <Link href={base} className={chip(selected.length === 0)} aria-current={selected.length === 0 ? "true" : undefined}>
          Everything
        </Link>
        {readable.map((k) => (
          <Link
            key={k}
            href={`${base}${timelineQuery({ kinds: toggle(k) })}`}
            className={chip(selected.includes(k))}
            aria-pressed={selected.includes(k)}
            data-kind={k}
          >
            {TIMELINE_KIND_LABELS[k]}
          </Link>
        ))}
      </nav>
      <ol className="rounded border border-slate-200 bg-white" aria-label="Timeline" data-testid="timeline">
        {page.entries.length === 0 ? (
          <li className="px-3 py-8 text-center text-sm text-slate-500">
            {page.kinds.length === 0
              ? "Your role reads none of the kinds asked for."
              : cursor
                ? "No older entries."
                : selected.length
                  ? "Nothing of these kinds recorded about this account."
                  : "Nothing recorded about this account yet."}
          </li>
        ) : (
          page.entries.map((e) => <Entry key={e.key} entry={e} />)
        )}
      </ol>
      <div className="flex items-center justify-between gap-2 text-sm">
        {cursor ? (
          <Link href={`${base}${timelineQuery({ kinds: selected })}`} className="text-blue-700 hover:underline">
            ← Newest
          </Link>
        ) : (
          <span />
        )}
        {page.nextCursor ? (
          <Link href={`${base}${timelineQuery({ kinds: selected, cursor: page.nextCursor })}`} className="text-blue-700 hover:underline">
            Older entries →
          </Link>
        ) : null}
      </div>
    </div>
  );
}

function chip(on: boolean): string {
  return `rounded-full border px-2.5 py-0.5 text-xs font-medium ${on ? "border-blue-700 bg-blue-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`;
}

function Entry({ entry: e }: { entry: TimelineEntry }) {
  return (
    <li
      className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-b border-slate-100 px-3 py-2 text-sm last:border-b-0"
      data-kind={e.kind}
      data-testid="timeline-entry"
    >
      <time dateTime={e.at} className="w-44 shrink-0 whitespace-nowrap font-mono text-xs text-slate-500">
        {formatDateTime(e.at)}
      </time>
      <span className="w-40 shrink-0">
        <Badge tone={KIND_TONES[e.kind]}>{TIMELINE_KIND_LABELS[e.kind]}</Badge>
      </span>
      <span className="min-w-0 flex-1">
        {e.href ? (
          <Link href={e.href} prefetch={false} className="font-medium text-blue-700 hover:underline">
            {e.title}
          </Link>
        ) : (
          <span className="font-medium text-slate-900">{e.title}</span>
        )}
        {e.status ? <span className="ml-2 text-xs uppercase text-slate-500">{e.status}</span> : null}
        {e.detail ? (
          <span className="block truncate text-slate-600" title={e.detail}>
            {e.detail}
          </span>
        ) : null}
      </span>
      {e.actor ? (
        <span className="max-w-56 truncate text-xs text-slate-500" title={e.actor}>
          {e.actor}
        </span>
      ) : null}
    </li>
  );
}
