"use server";
import "server-only";
import { streamRequestSchema } from "@/lib/schemas/stream";
import { defineAction } from "@/server/action-kit/define-action";
import { JOBS } from "@/server/jobs/definitions";
import { runJobNow } from "@/server/jobs";

/**
 * Sends a reconciliation job now: a detail call for every non-final movement and open order in the read model,
 * divergences fixed and counted (shown on the stream-health page and the jobs page).
 */
export const requestReconciliation = defineAction({
  name: "stream.reconcile",
  permission: "stream:manage",
  input: streamRequestSchema,
  async run(_input, { staff, audit }) {
    audit.target = "event-stream";
    const { queued } = await runJobNow(JOBS.reconcile.name, staff.email);
    return { requested: true, queued };
  },
});
