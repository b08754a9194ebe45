import "server-only";
import { getDb } from "@/server/db";
import { MarketHub } from "./hub";
import { marketReads } from "./reads";
import { noticeShare } from "./share";

/**
 * The market data domain: reads through the desk's Broker client (`reads.ts`), the shared pollers that keep the
 * upstream budget whatever the number of viewers (`hub.ts`), and the slowly-changing data kept for its lifetime
 * (`reference.ts`). One hub a process; on a PostgreSQL server the hubs of every app instance share their answers
 * (`share.ts`).
 */
export { cachedBars } from "./reference";

const holder = globalThis as unknown as { __brokerdeskMarketHub?: MarketHub; __brokerdeskMarketReads?: ReturnType<typeof marketReads> };

export function marketData() {
  holder.__brokerdeskMarketReads ??= marketReads();
  return holder.__brokerdeskMarketReads;
}

export function marketHub(): MarketHub {
  holder.__brokerdeskMarketHub ??= new MarketHub({ reads: marketData(), share: noticeShare(serverEngine) });
  return holder.__brokerdeskMarketHub;
}

/** The app's database when it is a server that other instances share (PGlite belongs to this process alone). */
async function serverEngine() {
  const { engine } = await getDb();
  if (engine.kind === "pglite") throw new Error("one process: nothing to share");
  return engine;
}
