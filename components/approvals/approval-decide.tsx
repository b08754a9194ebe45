"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ActionForm } from "@/components/form/action-form";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { useActionForm } from "@/components/form/use-action-form";
import { rejectSchema, type ApproveOutcome } from "@/lib/schemas/approvals";
import { approveApprovalAction, rejectApprovalAction, withdrawApprovalAction } from "@/server/actions/approvals";
import { RejectReasonFields } from "./reject-reason-fields";

const outcomeText = (o: ApproveOutcome) =>
  o.status === "executed"
    ? "Approved and executed."
    : o.status === "failed"
      ? `Approved; the execution failed: ${o.error ?? "see the result below"}`
      : `Approved: ${o.approvals} of ${o.required} approvals.`;

/**
 * The decisions this person may make (the server page says which; the server refuses the rest anyway): Approve
 * (confirmed, naming what will be sent), Reject (a reason required), Withdraw (the maker).
 */
export function ApprovalDecide({
  id,
  summary,
  controls,
}: {
  id: string;
  summary: string;
  controls: { approve: boolean; reject: boolean; withdraw: boolean };
}) {
  const router = useRouter();
  const { run, busy, banner } = useAction();
  const [rejecting, setRejecting] = useState(false);
  const done = () => router.refresh();

  if (!controls.approve && !controls.reject && !controls.withdraw) return null;
  return (
    <div className="flex flex-col gap-3" data-testid="approval-decide">
      <FormBanner banner={banner} />
      {rejecting ? (
        <RejectForm id={id} summary={summary} onDone={done} onCancel={() => setRejecting(false)} />
      ) : (
        <div className="flex flex-wrap gap-2">
          {controls.approve ? (
            <Button
              disabled={busy}
              onClick={() => {
                if (!window.confirm(`Approve "${summary}"? When this is the last approval needed, it is sent at once.`)) return;
                void run(() => approveApprovalAction({ id }), { success: outcomeText, onSuccess: done });
              }}
            >
              {busy ? "Approving…" : "Approve"}
            </Button>
          ) : null}
          {controls.reject ? (
            <Button variant="secondary" disabled={busy} onClick={() => setRejecting(true)}>
              Reject…
            </Button>
          ) : null}
          {controls.withdraw ? (
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() => {
                if (!window.confirm(`Withdraw "${summary}"? It will not be sent.`)) return;
                void run(() => withdrawApprovalAction({ id }), { success: "Withdrawn.", onSuccess: done });
              }}
            >
              {busy ? "Withdrawing…" : "Withdraw"}
            </Button>
          ) : null}
        </div>
      )}
    </div>
  );
}

/** Reject with a reason (the same schema as the action), confirmed before it is sent. */
function RejectForm({ id, summary, onDone, onCancel }: { id: string; summary: string; onDone: () => void; onCancel: () => void }) {
  const { form, onSubmit, submit, banner, busy } = useActionForm({
    schema: rejectSchema,
    defaultValues: { id, reason: "" },
    action: rejectApprovalAction,
    success: "Rejected.",
    onSuccess: onDone,
    onValid: async (values) => {
      if (window.confirm(`Reject "${summary}"? It will not be sent.`)) await submit(values);
    },
  });
  return (
    <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-2" aria-label="Reject">
      <RejectReasonFields
        label="Reason for rejecting"
        hint="The maker sees it; it is kept in the audit trail."
        submitLabel="Reject request"
        busy={busy}
        onCancel={onCancel}
      />
    </ActionForm>
  );
}
