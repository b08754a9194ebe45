import "server-only";
import type { Queryable } from "@/server/db/engine";
import { sendNotify } from "./queries";

/**
 * The desk's change notices: which live topics (orders, movements, activities, …) and accounts changed. Any module
 * that writes what a page shows sends one; `listen.ts` delivers them to this process's live streams.
 */
export interface ChangeNotice {
  topics: string[];
  accounts: string[];
  /** A shared market-data poller's answer, for the pollers of the other app instances (`server/market/share.ts`). */
  market?: MarketAnswer;
}

export interface MarketAnswer {
  topic: string;
  at: number;
  data: unknown;
}

export async function notifyChange(db: Queryable, notice: ChangeNotice): Promise<void> {
  await sendNotify(db, JSON.stringify(notice));
}
