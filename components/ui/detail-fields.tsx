import type { ReactNode } from "react";

/** An empty value as a grey dash, so a missing field reads as missing rather than as a gap. */
export const dash = (v: ReactNode) => (v === null || v === undefined || v === "" ? <span className="text-slate-400">—</span> : v);

/**
 * A detail page's fields: label and value pairs in two columns of pairs from `sm` up. A long value wraps in its cell
 * (an id, a reason) instead of being cut.
 */
export function Fields({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr_max-content_1fr]">
      {items.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-xs text-slate-500">{k}</dt>
          <dd className="min-w-0 tabular-nums break-words">{dash(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
