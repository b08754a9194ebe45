"use client";
import { useRouter } from "next/navigation";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { alertDecisionSchema, type AlertDecisionValues } from "@/lib/schemas/surveillance";
import { decideSurveillanceAlert } from "@/server/actions/alerts";

const { TextareaField } = formFields<AlertDecisionValues>();

/**
 * Clear or escalate an open alert; the note is required and goes to the alert and the audit trail. Asked once the note
 * passes the schema: a decided alert cannot be reopened.
 */
export function AlertDecisionForm({ alertId }: { alertId: string }) {
  const router = useRouter();
  const { form, onSubmit, submit, banner, busy } = useActionForm({
    schema: alertDecisionSchema,
    defaultValues: { alertId, decision: "cleared", note: "" },
    action: decideSurveillanceAlert,
    success: (d) => `Alert ${d.status}.`,
    onSuccess: () => router.refresh(),
    onValid: async (values) => {
      const verb = values.decision === "escalated" ? "Escalate" : "Clear";
      if (window.confirm(`${verb} alert #${alertId}? A decided alert cannot be reopened.`)) await submit(values);
    },
  });
  const choose = (decision: "cleared" | "escalated") => form.setValue("decision", decision);
  return (
    <Panel title="Decision">
      <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-3">
        <TextareaField
          name="note"
          label="Note"
          required
          rows={3}
          hint="Why: what you checked and what you found. Kept with the alert and in the audit trail."
        />
        <div className="flex gap-2">
          <Button type="submit" disabled={busy} onClick={() => choose("cleared")}>
            Clear
          </Button>
          <Button type="submit" variant="danger" disabled={busy} onClick={() => choose("escalated")}>
            Escalate
          </Button>
        </div>
      </ActionForm>
    </Panel>
  );
}
