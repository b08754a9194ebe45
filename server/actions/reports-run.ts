"use server";
import "server-only";
import { reportScheduleIdSchema } from "@/lib/schemas/reports";
import { defineAction } from "@/server/action-kit/define-action";
import { requestJob } from "@/server/jobs";
import { JOBS } from "@/server/jobs/definitions";
import { requestReportRun } from "@/server/reports/run";

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
