"use client";
import { useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import type { BulkDecisionResult } from "@/lib/schemas/approval-queue";
import type { ApprovalListRow } from "@/lib/schemas/approvals";
import { decideManyApprovalsAction } from "@/server/actions/approvals";
import { confirmText, plural } from "./bulk-words";

// The reject form (the form kit, its resolver) loads when a rejection is first chosen: the inbox stays light.
const RejectAll = dynamic(() => import("./bulk-reject").then((m) => m.RejectAll), { ssr: false });

type Decided = BulkDecisionResult & { summary: string };

const TONE: Record<BulkDecisionResult["outcome"], string> = {
  approved: "text-emerald-800",
  rejected: "text-slate-800",
  failed: "text-red-800",
  refused: "text-amber-900",
};

/**
 * Approve or reject the selected requests in one go, confirmed first (naming them); a rejection asks for one reason
 * used for all. The server decides each request on its own; the answer for each is listed in words below the bar.
 */
export function BulkDecide({ selected, onDone }: { selected: ApprovalListRow[]; onDone: () => void }) {
  const queryClient = useQueryClient();
  const { run, busy, banner } = useAction();
  const [rejecting, setRejecting] = useState(false);
  const [results, setResults] = useState<Decided[]>();

  const finish = (rows: ApprovalListRow[]) => async (data: { results: BulkDecisionResult[] }) => {
    const summaries = new Map(rows.map((r) => [r.id, r.summary]));
    setResults(data.results.map((r) => ({ ...r, summary: summaries.get(r.id) ?? r.id })));
    setRejecting(false);
    onDone();
    await queryClient.invalidateQueries({ queryKey: ["approvals"] });
  };

  const approve = () => {
    const rows = selected;
    const question = `Approve ${plural(rows.length)}? Each one that needs no further approval is sent at once.`;
    if (!window.confirm(confirmText(question, rows))) return;
    void run(() => decideManyApprovalsAction({ decision: "approve", ids: rows.map((r) => r.id) }), { onSuccess: finish(rows) });
  };

  return (
    <div className="flex flex-col gap-2" data-testid="bulk-decide">
      {selected.length ? (
        <div className="flex flex-wrap items-center gap-2 rounded border border-blue-200 bg-blue-50 px-3 py-2 text-sm">
          <span className="font-medium text-blue-950" data-testid="bulk-selected">
            {plural(selected.length)} selected
          </span>
          <Button size="sm" disabled={busy} onClick={approve}>
            {busy ? "Approving…" : `Approve ${selected.length}`}
          </Button>
          <Button size="sm" variant="secondary" disabled={busy || rejecting} onClick={() => setRejecting(true)}>
            Reject {selected.length}…
          </Button>
          <Button size="sm" variant="ghost" disabled={busy} onClick={onDone}>
            Clear selection
          </Button>
        </div>
      ) : null}
      <FormBanner banner={banner} />
      {rejecting && selected.length ? (
        <RejectAll selected={selected} onDone={finish(selected)} onCancel={() => setRejecting(false)} />
      ) : null}
      {results ? <Results results={results} onDismiss={() => setResults(undefined)} /> : null}
    </div>
  );
}

function Results({ results, onDismiss }: { results: Decided[]; onDismiss: () => void }) {
  return (
    <section role="status" aria-label="What became of each request" className="rounded border border-slate-200 bg-white px-3 py-2 text-sm">
      <div className="mb-1 flex items-center justify-between">
        <h2 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">What became of each request</h2>
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
      <ul className="flex flex-col gap-1">
        {results.map((r) => (
          <li key={r.id} data-testid="bulk-result" data-outcome={r.outcome} className="flex flex-wrap items-baseline gap-x-3">
            <Link href={`/approvals/${r.id}`} className="text-blue-800 hover:underline">
              {r.summary}
            </Link>
            <span className={`font-medium ${TONE[r.outcome]}`}>{r.message}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
