import type { ReportRecipientOption, ReportRun, ReportSchedule } from "@/lib/schemas/reports";
import { ReportRuns } from "./report-runs";
import { ScheduleForm } from "./schedule-form";
import { ScheduleTable } from "./schedule-table";

/**
 * Admin → Reports: the schedules (run now, enable or disable, edit, delete), the run history (live), and one form: a
 * new schedule, or the one being edited (`?edit=<id>`).
 */
export function ReportsView({
  schedules,
  staff,
  runs,
  editing,
}: {
  schedules: ReportSchedule[];
  staff: ReportRecipientOption[];
  runs: ReportRun[];
  editing?: ReportSchedule;
}) {
  return (
    <div className="flex flex-col gap-5">
      <ScheduleTable schedules={schedules} />
      <div className="grid items-start gap-5 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <ReportRuns initial={runs} />
        <ScheduleForm key={editing?.id ?? "new"} schedule={editing} staff={staff} />
      </div>
    </div>
  );
}
