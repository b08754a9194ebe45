import "server-only";
import { runFailureMessage } from "@/lib/errors";
import { errorText } from "@/server/broker/errors";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import { notifyChange } from "@/server/notices/channel";
import { sweepAccount } from "./account-window";
import { countAccountsSince, dropUnsweptAccount, insertRound, saveRound, selectRunningRound, selectVisitedSince } from "./queries/sweep";
import { ACTIVITIES_TOPIC, isRefusal, paceOf, type SweepAccount, type SweepDeps } from "./sweep-deps";

export type { SweepDeps } from "./sweep-deps";

/**
 * The activities sweep's round (`sweepActivities`): it visits every account, each through its own pass
 * (`account-window.ts`): the virtual accounts page by page, the page cursor kept in a `sync_runs` row (job
 * 'activities') so an interrupted round resumes where it was, and the master account (read off the virtual
 * accounts' belong_account_id, or configured) unless the upstream refuses to list it.
 * Progress in that row: done/total = accounts, checked = activity rows read, fixed = rows new or changed,
 * errors = accounts that failed. Change notices: topic "activities".
 *
 * One sweeper at a time: the `activities-sweep` job runs the rounds (server/jobs, a stately queue); pages ask for one with
 * `requestActivitiesSweep` (`sweep-requests.ts`) and read `activitiesFreshness` (`freshness.ts`).
 */

const ACCOUNT_PAGE_SIZE = 100;
/** A round stops (left running, to resume later) after this many accounts in a row failed: the upstream is down. */
const MAX_CONSECUTIVE_FAILURES = 5;

export interface SweepRound {
  id: string;
  startedAt: string;
  /** Accounts swept (or attempted) in this round, of `total` (null while unknown: the first round). */
  done: number;
  total: number | null;
  fetched: number;
  changed: number;
  errors: number;
  /** The round went through every account. */
  complete: boolean;
  lastError: string | null;
}

/**
 * One round over every account, resuming the round left unfinished (aborted, crashed, or stopped by an upstream
 * outage) if there is one. An account's error is recorded (its last_error, the round's errors) and the round goes
 * on; after several accounts in a row failed it stops, left running. Returns when done, stopped or aborted.
 */
export async function sweepActivities(d: SweepDeps, o: { signal?: AbortSignal; requestedBy?: string } = {}): Promise<SweepRound> {
  const { engine } = d;
  const pace = paceOf(d);
  let run = await selectRunningRound(engine);
  if (!run) run = await insertRound(engine, o.requestedBy ?? null);
  else {
    // Resumed: its counts from the accounts themselves (the last one may have ended after the run was saved).
    const c = await countAccountsSince(engine, run.started_at);
    run.done = c.ok + c.failed;
    run.errors = c.failed;
  }
  const r = run;
  // Errors still standing are the accounts' own (activity_sweeps.last_error); the round's is about this attempt.
  r.last_error = null;
  const view = (complete: boolean): SweepRound => ({
    id: r.id,
    startedAt: new Date(r.started_at).toISOString(),
    done: r.done,
    total: r.total,
    fetched: r.checked,
    changed: r.fixed,
    errors: r.errors,
    complete,
    lastError: r.last_error,
  });
  const notify = (accounts: string[] = []) => notifyChange(engine, { topics: [ACTIVITIES_TOPIC], accounts });
  await notify();

  const masters = new Set<string>();
  const wantMaster = d.master !== false;
  let failures = 0;

  /** Sweeps the accounts not yet swept in this round; false when the round must stop here. */
  const visit = async (accounts: (SweepAccount & { master?: boolean })[]): Promise<boolean> => {
    // Already visited in this round (a resumed one): done, or failed (tried again, but counted once).
    const visited = await selectVisitedSince(
      engine,
      accounts.map((a) => a.account_id),
      r.started_at,
    );
    const failedBefore = new Set(visited.filter((v) => v.failed).map((v) => v.account_id));
    const skip = new Set(visited.filter((v) => !v.failed).map((v) => v.account_id));
    for (const account of accounts) {
      if (skip.has(account.account_id)) continue;
      if (o.signal?.aborted) return false;
      const retry = failedBefore.has(account.account_id);
      try {
        const s = await sweepAccount(d, account, o.signal);
        if (!s.complete && !s.superseded) return false; // aborted
        if (retry) r.errors -= 1;
        else r.done += 1;
        r.checked += s.fetched;
        r.fixed += s.changed;
        failures = 0;
        if (s.changed) await notify([account.account_id]);
      } catch (e) {
        if (o.signal?.aborted) return false;
        if (account.master && isRefusal(e)) {
          // The upstream does not list the master account's activities: leave it out rather than report it stale.
          if (await dropUnsweptAccount(engine, account.account_id)) {
            d.log?.("info", "the upstream does not list the master account's activities; the sweep leaves it out", { err: errorText(e) });
            continue;
          }
        }
        if (!retry) {
          r.done += 1;
          r.errors += 1;
        }
        // The round's row is served to staff (freshness.ts): the safe message; the log below has the error.
        r.last_error = `${account.account_number ?? account.account_id}: ${runFailureMessage(e)}`;
        failures += 1;
        d.log?.("warn", "sweeping an account's activities failed; the next round retries it", {
          account_id: account.account_id,
          err: errorText(e),
        });
      }
      if (r.total !== null && r.done > r.total) r.total = r.done;
      await saveRound(engine, r);
      if (failures >= MAX_CONSECUTIVE_FAILURES) return false;
    }
    return true;
  };

  try {
    for (;;) {
      if (o.signal?.aborted) break;
      await pace(o.signal);
      if (o.signal?.aborted) break;
      const page = await d.client.listVirtualAccounts(
        { page_size: ACCOUNT_PAGE_SIZE, ...(r.cursor ? { cursor: r.cursor } : {}) },
        { signal: o.signal },
      );
      const accounts: (SweepAccount & { master?: boolean })[] = [];
      if (wantMaster) {
        const ids = page.items.map((a) => ({ id: a.belong_account_id, number: a.belong_account_number }));
        if (!masters.size && !ids.some((m) => m.id) && d.masterAccountId) ids.push({ id: d.masterAccountId, number: undefined });
        for (const m of ids) {
          if (!m.id || masters.has(m.id)) continue;
          masters.add(m.id);
          accounts.push({ account_id: m.id, account_number: m.number, master: true });
        }
      }
      accounts.push(...page.items.map((a) => ({ account_id: a.account_id, account_number: a.account_number })));
      // The round reads every account's number anyway: pages that hold only ids (movements, timelines) can name them.
      await rememberAccountNumbers(engine, accounts);
      if (!(await visit(accounts))) break;
      if (!page.nextCursor) {
        r.total = r.done;
        await saveRound(engine, r, "done");
        await notify();
        return view(true);
      }
      r.cursor = page.nextCursor;
      await saveRound(engine, r);
    }
  } catch (e) {
    if (!o.signal?.aborted) {
      // Thrown on: the job's runtime logs the error (server/jobs/runtime.ts); the row keeps the safe message.
      r.last_error = runFailureMessage(e);
      await saveRound(engine, r);
      await notify();
      throw e;
    }
  }
  // Aborted or stopped: left running; the next round resumes it.
  await saveRound(engine, r);
  await notify();
  return view(false);
}
