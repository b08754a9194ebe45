"use client";
import { formFields } from "@/components/form/fields";
import { Button } from "@/components/ui/button";

const { TextareaField } = formFields<{ reason: string }>();

/** The reason of a rejection (one request's, or one for several) and the form's buttons, inside its FormProvider. */
export function RejectReasonFields({
  label,
  hint,
  submitLabel,
  busy,
  onCancel,
}: {
  label: string;
  hint: string;
  submitLabel: string;
  busy: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      {/* Shown by a click on Reject…, a button that goes: the reason takes the focus, not the page. */}
      <TextareaField name="reason" label={label} required rows={3} maxLength={500} hint={hint} autoFocus />
      <div className="flex gap-2">
        <Button type="submit" variant="danger" disabled={busy}>
          {busy ? "Rejecting…" : submitLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </>
  );
}
