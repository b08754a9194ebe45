"use client";
import { useRouter } from "next/navigation";
import type { z } from "zod";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { breakAssignSchema, breakCloseSchema, breakCommentSchema } from "@/lib/schemas/reconciliation";
import { assignReconciliationBreak, closeReconciliationBreak, commentReconciliationBreak } from "@/server/actions/reconciliation";

const assignFields = formFields<z.input<typeof breakAssignSchema>>();
const commentFields = formFields<z.input<typeof breakCommentSchema>>();
const closeFields = formFields<z.input<typeof breakCloseSchema>>();

/** Who works the break (someone whose role works breaks, or nobody). */
function AssignForm({
  breakId,
  assignee,
  assignees,
}: {
  breakId: string;
  assignee: string | null;
  assignees: { email: string; name: string }[];
}) {
  const router = useRouter();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: breakAssignSchema,
    defaultValues: { breakId, assignee: assignee ?? "" },
    action: assignReconciliationBreak,
    success: (d) => (d.assignedTo ? `Assigned to ${d.assignedTo}.` : "Assigned to nobody."),
    onSuccess: () => router.refresh(),
  });
  return (
    <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-2" aria-label="Assign">
      <div className="flex items-end gap-2">
        <div className="min-w-0 flex-1">
          <assignFields.SelectField name="assignee" label="Assigned to">
            <option value="">Nobody</option>
            {assignees.map((a) => (
              <option key={a.email} value={a.email}>
                {a.name} ({a.email})
              </option>
            ))}
          </assignFields.SelectField>
        </div>
        <Button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Assign"}
        </Button>
      </div>
    </ActionForm>
  );
}

function CommentForm({ breakId }: { breakId: string }) {
  const router = useRouter();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: breakCommentSchema,
    defaultValues: { breakId, body: "" },
    action: commentReconciliationBreak,
    success: () => "Comment added.",
    onSuccess: () => {
      form.reset({ breakId, body: "" });
      router.refresh();
    },
  });
  return (
    <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-2" aria-label="Comment">
      <commentFields.TextareaField name="body" label="Comment" rows={3} required hint="What you checked, who you asked, what you found." />
      <div>
        <Button type="submit" variant="secondary" disabled={busy}>
          {busy ? "Adding…" : "Add comment"}
        </Button>
      </div>
    </ActionForm>
  );
}

function CloseForm({ breakId }: { breakId: string }) {
  const router = useRouter();
  const { form, onSubmit, submit, banner, busy } = useActionForm({
    schema: breakCloseSchema,
    defaultValues: { breakId, resolution: "" },
    action: closeReconciliationBreak,
    success: () => "Break closed.",
    onSuccess: () => router.refresh(),
    // Asked once the resolution passes the schema: a closed break cannot be reopened.
    onValid: async (values) => {
      if (window.confirm(`Close break #${breakId}? A closed break cannot be reopened.`)) await submit(values);
    },
  });
  return (
    <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-2" aria-label="Close">
      <closeFields.TextareaField
        name="resolution"
        label="Resolution"
        rows={3}
        required
        hint="How it was resolved. Kept with the break and in the audit trail; a later run that sees the same difference opens a new break."
      />
      <div>
        <Button type="submit" variant="danger" disabled={busy}>
          {busy ? "Closing…" : "Close break"}
        </Button>
      </div>
    </ActionForm>
  );
}

/** What someone who works breaks does with an open one: assign it, comment on it, close it. */
export function BreakWork({
  breakId,
  open,
  assignee,
  assignees,
}: {
  breakId: string;
  open: boolean;
  assignee: string | null;
  assignees: { email: string; name: string }[];
}) {
  return (
    <Panel title="Work the break">
      <div className="flex flex-col gap-4">
        {open ? <AssignForm breakId={breakId} assignee={assignee} assignees={assignees} /> : null}
        <CommentForm breakId={breakId} />
        {open ? <CloseForm breakId={breakId} /> : null}
      </div>
    </Panel>
  );
}
