"use client";
import { useRouter } from "next/navigation";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Badge } from "@/components/ui/badge";
import { Button, LinkButton } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { RowsTable, type RowColumn } from "@/components/ui/rows-table";
import { REPORT_KIND_LABELS, type ReportSchedule } from "@/lib/schemas/reports";
import { deleteReportSchedule, runReportNow, updateReportSchedule } from "@/server/actions/reports";
import { FORMAT_LABELS, utcMinute, whenOf } from "./labels";

const COLUMNS: RowColumn<ReportSchedule>[] = [
  { head: "Name", className: "min-w-40 font-medium", cell: (s) => s.name },
  {
    head: "Report",
    className: "whitespace-nowrap",
    cell: (s) => (
      <>
        {REPORT_KIND_LABELS[s.kind]}
        <span className="ml-1 text-xs text-slate-500">{FORMAT_LABELS[s.format]}</span>
      </>
    ),
  },
  {
    head: "When (UTC)",
    className: "whitespace-nowrap",
    cell: (s) => (
      <>
        {whenOf(s)}
        <span className="block text-xs text-slate-500 tabular-nums">{s.nextAt ? `Next ${utcMinute(s.nextAt)}` : "Not while disabled"}</span>
      </>
    ),
  },
  {
    head: "Recipients",
    className: "text-xs",
    cell: (s) =>
      s.recipients.map((r) => (
        <span key={r} className="block whitespace-nowrap">
          {r}
        </span>
      )),
  },
  { head: "State", cell: (s) => (s.enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Disabled</Badge>) },
];

/** The schedules, each with Run now, Enable or Disable, Edit and Delete (asked to confirm). */
export function ScheduleTable({ schedules }: { schedules: ReportSchedule[] }) {
  const router = useRouter();
  const { run, busy, banner } = useAction();
  const actions: RowColumn<ReportSchedule> = {
    head: <span className="sr-only">Actions</span>,
    className: "whitespace-nowrap text-right",
    cell: (s) => {
      const { id, createdBy: _c, nextAt: _n, ...input } = s;
      return (
        <div className="flex justify-end gap-1.5">
          <Button
            size="sm"
            disabled={busy}
            onClick={() =>
              void run(() => runReportNow({ id }), {
                success: (r) => `Run ${r.id} of ${s.name} asked for: it reports on yesterday (UTC) and is mailed within a minute.`,
                onSuccess: () => router.refresh(),
              })
            }
          >
            Run now
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => {
              // Turning it off stops its mails: asked first, as the approval rules' Disable asks. Turning it on is not.
              if (s.enabled && !window.confirm(`Disable the schedule ${s.name}? Its recipients get no more reports until it is enabled again.`))
                return;
              void run(() => updateReportSchedule({ id, ...input, enabled: !s.enabled }), {
                success: `${s.name} ${s.enabled ? "disabled" : "enabled"}.`,
                onSuccess: () => router.refresh(),
              });
            }}
          >
            {s.enabled ? "Disable" : "Enable"}
          </Button>
          <LinkButton href={`/admin/reports?edit=${id}`} size="sm" variant="secondary">
            Edit
          </LinkButton>
          <Button
            size="sm"
            variant="danger"
            disabled={busy}
            onClick={() => {
              if (!window.confirm(`Delete the schedule ${s.name}? Its runs stay in the history.`)) return;
              void run(() => deleteReportSchedule({ id }), {
                success: `${s.name} deleted.`,
                onSuccess: () => router.replace("/admin/reports"),
              });
            }}
          >
            Delete
          </Button>
        </div>
      );
    },
  };
  return (
    <Panel title="Schedules">
      <div className="mb-2">
        <FormBanner banner={banner} />
      </div>
      <RowsTable
        columns={[...COLUMNS, actions]}
        rows={schedules}
        rowKey={(s) => String(s.id)}
        rowProps={(s) => ({ "data-schedule": s.name })}
        empty="No schedules yet. Make one with the form below."
        testId="report-schedules"
      />
    </Panel>
  );
}
