"use server";
import "server-only";
import { statementPeriodSchema } from "@/lib/schemas/statements";
import { defineAction } from "@/server/action-kit/define-action";
import { requestJob } from "@/server/jobs";
import { JOBS } from "@/server/jobs/definitions";
import { requestStatementRun } from "@/server/statements/bulk";

/** Asks for every account's statement of a period in one zip: a run row, and the job that works it. */
export const requestStatements = defineAction({
  name: "statements.run",
  permission: "statements:read",
  input: statementPeriodSchema,
  async run(input, { db, staff, audit }) {
    const run = await requestStatementRun(db.engine, input, staff.email);
    audit.target = `statement-run:${run.id}`;
    await requestJob(JOBS.statements.name, { requestedBy: staff.email });
    return run;
  },
});
