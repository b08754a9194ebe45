import "server-only";
import type { ActivityFreshness } from "@/lib/schemas/activity-list";
import type { Queryable } from "@/server/db/engine";
import { selectFreshness } from "./queries/sweep";
import { iso } from "./sweep-deps";

/** What the explorer's "as of" line shows (the type the browser reads). */
export type ActivitiesFreshness = ActivityFreshness;

/** What the explorer's "as of" line says, for all accounts or one. A few indexed reads; no upstream call. */
export async function activitiesFreshness(engine: Queryable, accountId?: string): Promise<ActivitiesFreshness> {
  const { sweeps: s, failed, run, request: req } = await selectFreshness(engine, accountId);
  const accounts = Number(s.accounts);
  const swept = Number(s.swept);
  const running = run?.status === "running";
  return {
    asOf: accounts > 0 && swept === accounts ? iso(s.as_of) : null,
    accounts,
    swept,
    running: running
      ? { done: run.done, total: run.total, fetched: Number(run.checked), startedAt: new Date(run.started_at).toISOString() }
      : null,
    requestedAt: iso(req?.at),
    // The round's own error when no account has one: the account listing failed.
    lastError: failed
      ? `${failed.account_number ?? failed.account_id}: ${failed.last_error}`
      : running && !accountId
        ? run.last_error
        : null,
  };
}
