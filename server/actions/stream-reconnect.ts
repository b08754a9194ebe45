"use server";
import "server-only";
import { streamRequestSchema } from "@/lib/schemas/stream";
import { setReconnectRequest } from "@/server/books/queries/health";
import { notifyChange } from "@/server/notices/channel";
import { defineAction } from "@/server/action-kit/define-action";

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
