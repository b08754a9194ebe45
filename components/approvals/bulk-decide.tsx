"use client";
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { FormProvider } from "react-hook-form";
import { formFields } from "@/components/form/fields";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { bulkRejectReasonSchema, type BulkDecisionResult, type BulkRejectReasonValues } from "@/lib/schemas/approval-queue";
import type { ApprovalListRow } from "@/lib/schemas/approvals";
import { decideManyApprovalsAction } from "@/server/actions/approvals-decide-many";

type Decided = BulkDecisionResult & { summary: string };

const plural = (n: number) => (n === 1 ? "1 request" : `${n} requests`);

/** What a confirmation names: the requests, the first ten by their summary. */
function confirmText(question: string, rows: ApprovalListRow[]): string {
  const names = rows.slice(0, 10).map((r) => `• ${r.summary}`);
  if (rows.length > 10) names.push(`… and ${rows.length - 10} more`);
  return `${question}\n\n${names.join("\n")}`;
}

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

const { TextareaField } = formFields<BulkRejectReasonValues>();

function RejectAll({
  selected,
  onDone,
  onCancel,
}: {
  selected: ApprovalListRow[];
  onDone: (data: { results: BulkDecisionResult[] }) => Promise<void>;
  onCancel: () => void;
}) {
  const ids = selected.map((r) => r.id);
  const { form, onSubmit, submit, banner, busy } = useActionForm({
    schema: bulkRejectReasonSchema,
    defaultValues: { reason: "" },
    action: ({ reason }) => decideManyApprovalsAction({ decision: "reject", ids, reason }),
    onSuccess: onDone,
    onValid: async (values) => {
      const question = `Reject ${plural(selected.length)}? None of them will be sent; each maker sees the reason.`;
      if (window.confirm(confirmText(question, selected))) await submit(values);
    },
  });
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} className="flex max-w-xl flex-col gap-2" aria-label="Reject the selected requests" noValidate>
        <FormBanner banner={banner} />
        <TextareaField
          name="reason"
          label={`Reason for rejecting (used for all ${selected.length})`}
          required
          rows={2}
          maxLength={500}
          hint="Each maker sees it; it is kept in the audit trail."
        />
        <div className="flex gap-2">
          <Button type="submit" variant="danger" disabled={busy}>
            {busy ? "Rejecting…" : `Reject ${plural(selected.length)}`}
          </Button>
          <Button variant="ghost" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
    </FormProvider>
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
