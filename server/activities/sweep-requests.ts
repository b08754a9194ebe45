import "server-only";
import type { Engine } from "@/server/db/engine";
import { notifyChange } from "@/server/notices/channel";
import { resetAccountState, setSweepRequest } from "./queries/sweep";
import { ACTIVITIES_TOPIC } from "./sweep-deps";

/** A reviewer's "sweep now": records the request's time for the page; the caller sends the `activities-sweep` job. */
export async function requestActivitiesSweep(engine: Engine, by: string): Promise<{ requestedAt: string }> {
  const at = await setSweepRequest(engine, by);
  await notifyChange(engine, { topics: [ACTIVITIES_TOPIC], accounts: [] });
  return { requestedAt: new Date(at).toISOString() };
}

/**
 * Reads one account's history again from the start (`days` back) at the next round, which it asks for: for history
 * the upstream wrote after its window was swept (a back-dated correction). Rows already copied stay; those read
 * again are upserted. A pass in progress on the account ends with nothing swept, so the next one starts over.
 */
export async function resetAccountSweep(engine: Engine, accountId: string, by: string): Promise<{ requestedAt: string }> {
  await resetAccountState(engine, accountId);
  return requestActivitiesSweep(engine, by);
}
