"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { formatDateTime } from "@/lib/format";
import { decisionNoticeText, type DecisionNotice, type DecisionNotices } from "@/lib/approval-notices";
import { markDecisionsSeenAction } from "@/server/actions/approvals-decisions-seen";

const KEY = ["approvals", "decided"];

const TONE: Record<DecisionNotice["status"], string> = {
  executed: "text-emerald-800",
  failed: "text-red-800",
  rejected: "text-red-800",
  expired: "text-slate-600",
};

/**
 * The maker told of decisions in the header: their requests approved, rejected or expired since they last looked
 * (under the `approvals` live root: a decision anywhere refreshes it). Opening it lists them, each linking to its
 * request, and marks those seen; the list stays open until closed (Escape, the button, or a link).
 */
export function DecisionNoticesButton({ initial }: { initial?: DecisionNotices }) {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => fetchJson<DecisionNotices>("/api/approvals/decided", signal),
    initialData: initial,
  });
  const [shown, setShown] = useState<DecisionNotices | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const count = data?.count ?? 0;

  const close = () => {
    setShown(null);
    button.current?.focus();
  };
  useEffect(() => {
    if (!shown) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && close();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [shown]);

  const open = () => {
    if (!data?.rows.length) return;
    setShown(data);
    void markDecisionsSeenAction({ ids: data.rows.map((r) => r.id) }).then(() => queryClient.invalidateQueries({ queryKey: KEY }));
  };

  if (!count && !shown) return null;
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={!!shown}
        aria-controls={panelId}
        data-testid="decision-notices"
        onClick={() => (shown ? close() : open())}
        className="inline-flex items-center gap-1.5 rounded px-2 py-1 text-slate-700 hover:bg-slate-100"
      >
        Your requests
        {count ? (
          <span className="rounded-full bg-blue-700 px-1.5 text-[11px] leading-5 font-semibold text-white tabular-nums">
            {count} decided
          </span>
        ) : null}
      </button>
      {shown ? (
        <div
          id={panelId}
          role="region"
          aria-label="Decisions on your requests"
          className="absolute top-full right-0 z-30 mt-1 w-[26rem] rounded border border-slate-200 bg-white p-3 text-sm shadow-lg"
        >
          <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Decisions on your requests</p>
          <ul className="flex max-h-96 flex-col gap-2 overflow-y-auto" data-testid="decision-notice-list">
            {shown.rows.map((n) => (
              <li key={n.id} data-testid="decision-notice" className="border-t border-slate-100 pt-2 first:border-0 first:pt-0">
                <Link href={`/approvals/${n.id}`} prefetch={false} onClick={() => setShown(null)} className="text-blue-800 hover:underline">
                  {n.summary}
                </Link>
                <p className={`text-xs font-medium ${TONE[n.status]}`}>{decisionNoticeText(n)}</p>
                <p className="text-[11px] text-slate-500">{formatDateTime(n.decidedAt)}</p>
              </li>
            ))}
          </ul>
          {shown.count > shown.rows.length ? (
            <p className="mt-2 text-xs text-slate-600">And {shown.count - shown.rows.length} more: open this again to see them.</p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
