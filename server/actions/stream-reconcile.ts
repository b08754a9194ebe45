"use server";
import "server-only";
import { streamRequestSchema } from "@/lib/schemas/stream";
import { notifyChange } from "@/server/events/channel";
import { defineAction } from "@/server/action-kit/define-action";

/**
 * Asks the active event consumer to run a reconciliation now: a detail call for every non-final movement and open
 * order in the read model, divergences fixed and counted (shown on the stream-health page).
 */
export const requestReconciliation = defineAction({
  name: "stream.reconcile",
  permission: "stream:manage",
  input: streamRequestSchema,
  async run(_input, { db, staff, audit }) {
    audit.target = "event-stream";
    await db.engine.query(
      "UPDATE brokerdesk.event_stream SET reconcile_requested_at = now(), reconcile_requested_by = $1 WHERE id = 'upstream'",
      [staff.email],
    );
    await notifyChange(db.engine, { topics: ["stream"], accounts: [] });
    return { requested: true };
  },
});
