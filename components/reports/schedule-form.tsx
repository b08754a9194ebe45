"use client";
import { useRouter } from "next/navigation";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button, LinkButton } from "@/components/ui/button";
import { Options } from "@/components/ui/field";
import { Panel } from "@/components/ui/page";
import {
  REPORT_CADENCE_LABELS,
  REPORT_CADENCES,
  REPORT_FORMATS,
  REPORT_KIND_LABELS,
  REPORT_KINDS,
  reportScheduleSchema,
  type ReportRecipientOption,
  type ReportSchedule,
  type ReportScheduleInput,
} from "@/lib/schemas/reports";
import { createReportSchedule, updateReportSchedule } from "@/server/actions/reports";
import { FORMAT_LABELS } from "./labels";

const { TextField, SelectField, CheckboxField, CheckboxGroupField } = formFields<ReportScheduleInput>();

/** A schedule's form, shared by create and edit: what, which format, when (UTC), to which enabled staff. */
export function ScheduleForm({ schedule, staff }: { schedule?: ReportSchedule; staff: ReportRecipientOption[] }) {
  const router = useRouter();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: reportScheduleSchema,
    defaultValues: {
      name: schedule?.name ?? "",
      kind: schedule?.kind ?? "daily_movements",
      format: schedule?.format ?? "csv",
      cadence: schedule?.cadence ?? "weekdays",
      atTime: schedule?.atTime ?? "06:00",
      recipients: schedule?.recipients ?? [],
      enabled: schedule?.enabled ?? true,
    },
    action: (input) => (schedule ? updateReportSchedule({ ...input, id: schedule.id }) : createReportSchedule(input)),
    success: (s) => `${s.name} saved.${s.nextAt ? ` Next run ${s.nextAt.slice(0, 16).replace("T", " ")} UTC.` : " It is disabled."}`,
    onSuccess: (_s, f) => {
      if (!schedule) f.reset();
      router.refresh();
    },
  });
  const options = staff.map((s) => ({
    value: s.email,
    label: (
      <span className="min-w-0">
        <span className="block">{s.name}</span>
        <span className="block font-mono text-xs break-all text-slate-500">{s.email}</span>
      </span>
    ),
  }));
  const title = schedule ? `Edit schedule: ${schedule.name}` : "New schedule";
  return (
    <Panel title={title}>
      <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-3" aria-label={title}>
          <TextField name="name" label="Name" required autoComplete="off" hint="In the mail's subject and the history" />
          <SelectField name="kind" label="Report" required>
            <Options values={REPORT_KINDS} labels={REPORT_KIND_LABELS} />
          </SelectField>
          <div className="grid grid-cols-[5rem_minmax(0,1fr)_6rem] gap-3">
            <SelectField name="format" label="Format" required>
              <Options values={REPORT_FORMATS} labels={FORMAT_LABELS} />
            </SelectField>
            <SelectField name="cadence" label="When" required>
              <Options values={REPORT_CADENCES} labels={REPORT_CADENCE_LABELS} />
            </SelectField>
            <TextField name="atTime" label="At (UTC)" required placeholder="06:00" inputMode="numeric" autoComplete="off" />
          </div>
          <p className="text-xs text-slate-500">Each run reports on the UTC day before it (00:00 to 24:00 UTC).</p>
          <CheckboxGroupField name="recipients" label="Mail to (enabled staff)" options={options} />
          <CheckboxField name="enabled" label="Enabled" />
          <div className="flex items-center gap-2">
            <Button type="submit" disabled={busy}>
              {busy ? "Saving…" : schedule ? "Save schedule" : "Create schedule"}
            </Button>
            {schedule ? (
              <LinkButton href="/admin/reports" variant="ghost">
                Cancel
              </LinkButton>
            ) : null}
          </div>
        </ActionForm>
    </Panel>
  );
}
