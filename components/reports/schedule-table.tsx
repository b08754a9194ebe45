"use client";
import { useRouter } from "next/navigation";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Badge } from "@/components/ui/badge";
import { Button, LinkButton } from "@/components/ui/button";
import { Panel, table } from "@/components/ui/page";
import { REPORT_KIND_LABELS, type ReportSchedule } from "@/lib/schemas/reports";
import { deleteReportSchedule } from "@/server/actions/reports-delete";
import { runReportNow } from "@/server/actions/reports-run";
import { updateReportSchedule } from "@/server/actions/reports-update";
import { FORMAT_LABELS, utcMinute, whenOf } from "./labels";

const HEADERS = ["Name", "Report", "When (UTC)", "Recipients", "State", ""];

/** The schedules, each with Run now, Enable or Disable, Edit and Delete (asked to confirm). */
export function ScheduleTable({ schedules }: { schedules: ReportSchedule[] }) {
  const router = useRouter();
  const { run, busy, banner } = useAction();
  return (
    <Panel title="Schedules">
      <div className="mb-2">
        <FormBanner banner={banner} />
      </div>
      <div className={table.wrap}>
        <table className={table.table} data-testid="report-schedules">
          <thead>
            <tr>
              {HEADERS.map((h, i) => (
                <th key={i} className={table.th}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {schedules.length === 0 ? (
              <tr>
                <td colSpan={HEADERS.length} className={table.empty}>
                  No schedules yet. Make one with the form below.
                </td>
              </tr>
            ) : (
              schedules.map((s) => {
                const { id, createdBy: _c, nextAt: _n, ...input } = s;
                return (
                  <tr key={id} data-schedule={s.name}>
                    <td className={`${table.td} min-w-40 font-medium`}>{s.name}</td>
                    <td className={`${table.td} whitespace-nowrap`}>
                      {REPORT_KIND_LABELS[s.kind]}
                      <span className="ml-1 text-xs text-slate-500">{FORMAT_LABELS[s.format]}</span>
                    </td>
                    <td className={`${table.td} whitespace-nowrap`}>
                      {whenOf(s)}
                      <span className="block text-xs text-slate-500 tabular-nums">
                        {s.nextAt ? `Next ${utcMinute(s.nextAt)}` : "Not while disabled"}
                      </span>
                    </td>
                    <td className={`${table.td} text-xs`}>
                      {s.recipients.map((r) => (
                        <span key={r} className="block whitespace-nowrap">
                          {r}
                        </span>
                      ))}
                    </td>
                    <td className={table.td}>{s.enabled ? <Badge tone="green">Enabled</Badge> : <Badge>Disabled</Badge>}</td>
                    <td className={`${table.td} whitespace-nowrap text-right`}>
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
                          onClick={() =>
                            void run(() => updateReportSchedule({ id, ...input, enabled: !s.enabled }), {
                              success: `${s.name} ${s.enabled ? "disabled" : "enabled"}.`,
                              onSuccess: () => router.refresh(),
                            })
                          }
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
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}
