"use server";
import "server-only";
import { updateReportScheduleSchema } from "@/lib/schemas/reports";
import { defineAction } from "@/server/action-kit/define-action";
import { editSchedule } from "@/server/reports/schedules";

/** Edits a schedule, enabling or disabling it too; the change applies from its next slot. */
export const updateReportSchedule = defineAction({
  name: "reports.schedule_update",
  permission: "reports:manage",
  input: updateReportScheduleSchema,
  async run({ id, ...input }, { db, audit }) {
    audit.target = `report-schedule:${id}`;
    return editSchedule(db.engine, id, input);
  },
});
