"use server";
import "server-only";
import { NotFoundError } from "@/lib/errors";
import { retryJobSchema, runJobSchema } from "@/lib/schemas/jobs";
import { defineAction } from "@/server/action-kit/define-action";
import { getDb } from "@/server/db";
import { retryJob, runJobNow } from "@/server/jobs";
import { jobById } from "@/server/jobs/queries";

/** The jobs page's retry of a failed job: it waits again for a worker, its retry count kept. */
export const retryFailedJob = defineAction({
  name: "jobs.retry",
  permission: "jobs:manage",
  input: retryJobSchema,
  async run(input, { audit }) {
    audit.target = `job:${input.queue}:${input.id}`;
    const job = await jobById((await getDb()).engine, input.id);
    if (!job || job.name !== input.queue || job.state !== "failed") throw new NotFoundError("No failed job with this id.");
    await retryJob(input.queue, input.id);
    return { retried: true };
  },
});

/** The jobs page's "Run now": sends the queue's job at once (one waits at most; a running one is not doubled). */
export const runJob = defineAction({
  name: "jobs.run",
  permission: "jobs:manage",
  input: runJobSchema,
  async run(input, { staff, audit }) {
    audit.target = `job-queue:${input.queue}`;
    return runJobNow(input.queue, staff.email);
  },
});
