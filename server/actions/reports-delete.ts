"use server";
import "server-only";
import { reportScheduleIdSchema } from "@/lib/schemas/reports";
import { defineAction } from "@/server/action-kit/define-action";
import { deleteSchedule } from "@/server/reports/schedules";

/** Deletes a schedule; its runs stay in the history under its name. */
export const deleteReportSchedule = defineAction({
  name: "reports.schedule_delete",
  permission: "reports:manage",
  input: reportScheduleIdSchema,
  async run({ id }, { db, audit }) {
    audit.target = `report-schedule:${id}`;
    await deleteSchedule(db.engine, id);
    return { id };
  },
});
