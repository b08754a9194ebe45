"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useCallback, useId, useRef, useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import type { DecisionNotices } from "@/lib/approval-notices";
import { useReadAt } from "@/components/live/read-at";

const DECIDED_KEY = ["approvals", "decided"];

// The list loads when first opened: every page carries the button, few open it.
const DecisionNoticesPanel = dynamic(() => import("./decision-notices-panel").then((m) => m.DecisionNoticesPanel), { ssr: false });

/**
 * The maker told of decisions in the header: their requests approved, rejected or expired since they last looked
 * (under the `approvals` live root: a decision anywhere refreshes it). Opening it lists them, each linking to its
 * request, and marks those seen; the list stays open until closed (Escape, the button, or a link).
 */
export function DecisionNoticesButton({ initial }: { initial?: DecisionNotices }) {
  const queryClient = useQueryClient();
  const readAt = useReadAt();
  const { data } = useQuery({
    queryKey: DECIDED_KEY,
    queryFn: ({ signal }) => fetchJson<DecisionNotices>("/api/approvals/decided", signal),
    initialData: initial,
    initialDataUpdatedAt: readAt,
  });
  const [shown, setShown] = useState<DecisionNotices | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const count = data?.count ?? 0;
  const seen = useCallback(() => void queryClient.invalidateQueries({ queryKey: DECIDED_KEY }), [queryClient]);
  const close = useCallback((focus: boolean) => {
    setShown(null);
    if (focus) button.current?.focus();
  }, []);

  if (!count && !shown) return null;
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-expanded={!!shown}
        aria-controls={panelId}
        data-testid="decision-notices"
        onClick={() => (shown ? close(true) : data?.rows.length && setShown(data))}
        className="inline-flex items-center gap-1.5 rounded px-2 py-1 text-slate-700 hover:bg-slate-100"
      >
        Your requests
        {count ? (
          <span className="rounded-full bg-blue-700 px-1.5 text-[11px] leading-5 font-semibold text-white tabular-nums">
            {count} decided
          </span>
        ) : null}
      </button>
      {shown ? <DecisionNoticesPanel id={panelId} shown={shown} onSeen={seen} onClose={close} /> : null}
    </div>
  );
}
