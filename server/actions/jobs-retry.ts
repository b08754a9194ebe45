"use server";
import "server-only";
import { NotFoundError } from "@/lib/errors";
import { retryJobSchema } from "@/lib/schemas/jobs";
import { defineAction } from "@/server/action-kit/define-action";
import { getDb } from "@/server/db";
import { retryJob } from "@/server/jobs";
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
