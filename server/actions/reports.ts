"use server";
import "server-only";
import { reportScheduleIdSchema, reportScheduleSchema, updateReportScheduleSchema } from "@/lib/schemas/reports";
import { defineAction } from "@/server/action-kit/define-action";
import { requestJob } from "@/server/jobs";
import { JOBS } from "@/server/jobs/definitions";
import { requestReportRun } from "@/server/reports/run";
import { createSchedule, deleteSchedule, editSchedule } from "@/server/reports/schedules";

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

/** "Run now": a run of the schedule for this moment (the day before, UTC), and the job that works it. */
export const runReportNow = defineAction({
  name: "reports.run",
  permission: "reports:manage",
  input: reportScheduleIdSchema,
  async run({ id }, { db, staff, audit }) {
    const run = await requestReportRun(db.engine, id, staff.email);
    audit.target = `report-run:${run.id}`;
    await requestJob(JOBS.reports.name, { requestedBy: staff.email });
    return run;
  },
});

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
