"use server";
import "server-only";
import { runJobSchema } from "@/lib/schemas/jobs";
import { defineAction } from "@/server/action-kit/define-action";
import { runJobNow } from "@/server/jobs";

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
