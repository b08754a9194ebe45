import type { ReportRecipientOption, ReportRun, ReportSchedule } from "@/lib/schemas/reports";
import type { RunsPage } from "@/lib/schemas/runs";
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
  runs: RunsPage<ReportRun>;
  editing?: ReportSchedule;
}) {
  return (
    <div className="flex flex-col gap-5">
      <ScheduleTable schedules={schedules} />
      {/* The form beside the history on a wide screen; on a narrower one below it, or above it while editing (a
          schedule's Edit is in the table above). */}
      <div className="grid items-start gap-5 2xl:grid-cols-[minmax(0,1fr)_30rem]">
        <div className={`min-w-0 ${editing ? "order-2 2xl:order-1" : ""}`}>
          <ReportRuns initial={runs} />
        </div>
        <div className={`max-w-2xl 2xl:max-w-none ${editing ? "order-1 2xl:order-2" : ""}`}>
          <ScheduleForm key={editing?.id ?? "new"} schedule={editing} staff={staff} />
        </div>
      </div>
    </div>
  );
}
