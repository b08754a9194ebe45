import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The PostgreSQL channel of the desk's change notices (NOTIFY; delivered on commit, to every instance). */
export const CHANGES_CHANNEL = "brokerdesk_changes";

/** What a listening connection runs once to hear the notices. */
export const LISTEN_CHANGES = `LISTEN ${CHANGES_CHANNEL}`;

/** Sends a notice's payload on the channel (inside a transaction: on commit). */
export async function sendNotify(db: Queryable, payload: string): Promise<void> {
  await db.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, payload]);
}
