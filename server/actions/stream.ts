"use server";
import "server-only";
import { streamRequestSchema } from "@/lib/schemas/stream";
import { defineAction } from "@/server/action-kit/define-action";
import { setReconnectRequest } from "@/server/books/queries/health";
import { runJobNow } from "@/server/jobs";
import { JOBS } from "@/server/jobs/definitions";
import { notifyChange } from "@/server/notices/channel";

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

/**
 * Asks the active event consumer (whichever process holds the leader lock) to end its stream and resubscribe from
 * the stored resume point. The request travels through the database, so it reaches a consumer in another process.
 */
export const requestStreamReconnect = defineAction({
  name: "stream.reconnect",
  permission: "stream:manage",
  input: streamRequestSchema,
  async run(_input, { db, audit }) {
    audit.target = "event-stream";
    await setReconnectRequest(db.engine);
    await notifyChange(db.engine, { topics: ["stream"], accounts: [] });
    return { requested: true };
  },
});
