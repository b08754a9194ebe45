"use server";
import "server-only";
import { z } from "zod";
import { defineAction } from "@/server/action-kit/define-action";
import { requestJob } from "@/server/jobs";
import { JOBS } from "@/server/jobs/definitions";
import { queueRun } from "@/server/reconciliation/queries";

/** Asks for a reconciliation now: a queued run (one waits at most) and the job that works it. */
export const requestReconciliation = defineAction({
  name: "reconciliation.run",
  permission: "reconciliation:work",
  input: z.object({}),
  async run(_input, { db, staff, audit }) {
    const run = await queueRun(db.engine, "request", staff.email);
    audit.target = `reconciliation-run:${run.id}`;
    await requestJob(JOBS.eodReconciliation.name, { requestedBy: staff.email, requestedAt: run.requestedAt });
    return run;
  },
});
