"use server";
import "server-only";
import { reportScheduleSchema } from "@/lib/schemas/reports";
import { defineAction } from "@/server/action-kit/define-action";
import { createSchedule } from "@/server/reports/schedules";

/** A report's schedule (Admin → Reports): what, in which format, to which enabled staff, when. */
export const createReportSchedule = defineAction({
  name: "reports.schedule_create",
  permission: "reports:manage",
  input: reportScheduleSchema,
  async run(input, { db, staff, audit }) {
    const schedule = await createSchedule(db.engine, input, staff.email);
    audit.target = `report-schedule:${schedule.id}`;
    return schedule;
  },
});
