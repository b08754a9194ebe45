"use server";
import "server-only";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { breakAssignSchema, breakCloseSchema, breakCommentSchema } from "@/lib/schemas/reconciliation";
import { defineAction } from "@/server/action-kit/define-action";
import { requestJob } from "@/server/jobs";
import { JOBS } from "@/server/jobs/definitions";
import { assignTo, closeWith, commentOn } from "@/server/reconciliation/breaks";
import { queueRun } from "@/server/reconciliation/queries";

/** Assigns an open break to someone who works breaks (empty: to nobody). */
export const assignReconciliationBreak = defineAction({
  name: "reconciliation.break_assign",
  permission: "reconciliation:work",
  input: breakAssignSchema,
  async run({ breakId, assignee }, { db, audit }) {
    audit.target = `reconciliation-break:${breakId}`;
    const row = await assignTo(db.engine, breakId, assignee);
    revalidatePath(`/reconciliation/breaks/${breakId}`);
    return row;
  },
});

/** Closes an open break with how it was resolved; a later run that sees the same difference opens a new one. */
export const closeReconciliationBreak = defineAction({
  name: "reconciliation.break_close",
  permission: "reconciliation:work",
  input: breakCloseSchema,
  async run({ breakId, resolution }, { db, staff, audit }) {
    audit.target = `reconciliation-break:${breakId}`;
    const row = await closeWith(db.engine, breakId, staff.email, resolution);
    revalidatePath(`/reconciliation/breaks/${breakId}`);
    revalidatePath("/reconciliation");
    return row;
  },
});

/** A comment on a break, open or closed (the record of what was found out). */
export const commentReconciliationBreak = defineAction({
  name: "reconciliation.break_comment",
  permission: "reconciliation:work",
  input: breakCommentSchema,
  async run({ breakId, body }, { db, staff, audit }) {
    audit.target = `reconciliation-break:${breakId}`;
    const comment = await commentOn(db.engine, breakId, staff.email, body);
    revalidatePath(`/reconciliation/breaks/${breakId}`);
    return comment;
  },
});

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
