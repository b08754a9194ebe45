import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The PostgreSQL channel of the desk's change notices (NOTIFY; delivered on commit, to every instance). */
export const CHANGES_CHANNEL = "brokerdesk_changes";

export interface ChangeNotice {
  topics: string[];
  accounts: string[];
}

export async function notifyChange(db: Queryable, notice: ChangeNotice): Promise<void> {
  await db.query("SELECT pg_notify($1, $2)", [CHANGES_CHANNEL, JSON.stringify(notice)]);
}
