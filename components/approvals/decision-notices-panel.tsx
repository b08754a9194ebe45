"use client";
import Link from "next/link";
import { useEffect } from "react";
import { decisionNoticeText, type DecisionNotice, type DecisionNotices } from "@/lib/approval-notices";
import { formatDateTime } from "@/lib/format";
import { markDecisionsSeenAction } from "@/server/actions/approvals";

const TONE: Record<DecisionNotice["status"], string> = {
  executed: "text-emerald-800",
  failed: "text-red-800",
  rejected: "text-red-800",
  expired: "text-slate-600",
};

/**
 * The maker's decided requests as they were when the notice was opened, each linked to its request; shown, they are
 * marked seen (the header's count then drops). Escape closes it.
 */
export function DecisionNoticesPanel({
  id,
  shown,
  onSeen,
  onClose,
}: {
  id: string;
  shown: DecisionNotices;
  /** They are marked seen: the header reads its count again. */
  onSeen: () => void;
  onClose: (focus: boolean) => void;
}) {
  useEffect(() => {
    void markDecisionsSeenAction({ ids: shown.rows.map((r) => r.id) }).then(onSeen);
  }, [shown, onSeen]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && onClose(true);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div
      id={id}
      role="region"
      aria-label="Decisions on your requests"
      className="absolute top-full right-0 z-30 mt-1 w-[26rem] rounded border border-slate-200 bg-white p-3 text-sm shadow-lg"
    >
      <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Decisions on your requests</p>
      <ul className="flex max-h-96 flex-col gap-2 overflow-y-auto" data-testid="decision-notice-list">
        {shown.rows.map((n) => (
          <li key={n.id} data-testid="decision-notice" className="border-t border-slate-100 pt-2 first:border-0 first:pt-0">
            <Link href={`/approvals/${n.id}`} prefetch={false} onClick={() => onClose(false)} className="text-blue-800 hover:underline">
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
  );
}
