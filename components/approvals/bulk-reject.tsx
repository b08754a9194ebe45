"use client";
import { ActionForm } from "@/components/form/action-form";
import { useActionForm } from "@/components/form/use-action-form";
import { bulkRejectReasonSchema, type BulkDecisionResult } from "@/lib/schemas/approval-queue";
import type { ApprovalListRow } from "@/lib/schemas/approvals";
import { decideManyApprovalsAction } from "@/server/actions/approvals";
import { confirmText, plural } from "./bulk-words";
import { RejectReasonFields } from "./reject-reason-fields";

/** One reason for every selected request, confirmed naming them; each request is then rejected on its own. */
export function RejectAll({
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
    <ActionForm
      form={form}
      onSubmit={onSubmit}
      banner={banner}
      className="flex max-w-xl flex-col gap-2"
      aria-label="Reject the selected requests"
    >
      <RejectReasonFields
        label={selected.length === 1 ? "Reason for rejecting" : `Reason for rejecting (used for all ${selected.length})`}
        hint="Each maker sees it; it is kept in the audit trail."
        submitLabel={`Reject ${plural(selected.length)}`}
        busy={busy}
        onCancel={onCancel}
      />
    </ActionForm>
  );
}
