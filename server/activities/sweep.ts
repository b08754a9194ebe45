import "server-only";
import type { Activity } from "@/lib/schemas/account-data";
import type { ActivityFreshness } from "@/lib/schemas/activity-list";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import type { BrokerClient } from "@/server/broker/client";
import { isBrokerError } from "@/server/broker/errors";
import { TokenBucket } from "@/server/broker/rate-budget";
import type { Engine, Queryable } from "@/server/db/engine";
import { notifyChange } from "@/server/events/channel";

/**
 * The desk's copy of account activities (brokerdesk.activities), for the explorer across accounts. The upstream
 * lists activities one account at a time within the "account" rate group, so a sweep fills the copy per account,
 * incrementally by time, paced to a share of that budget.
 *
 * Per account (activity_sweeps): every activity with biz_time before `swept_until` is copied. A pass opens the
 * window [swept_until, window_end) with window_end = now − a settle margin (activities are written with their own
 * time, a moment before they can be read), and pages through it newest first with start_time/end_time; each page's
 * rows and the cursor after it are written in one transaction, so a pass cut short (abort, crash, upstream error)
 * resumes from its cursor: nothing is fetched twice, nothing skipped. The last page moves swept_until to
 * window_end. A first pass reaches back `days`.
 *
 * Boundaries: both times go on the wire inclusive (the listing filters biz_time >= start_time AND
 * biz_time <= end_time), and the next window starts at this one's end, so an activity at exactly a boundary is
 * read by both passes and stored once (upsert). Windows are whole milliseconds (the wire format's precision).
 *
 * A round (`sweepActivities`) visits every account: the virtual accounts page by page, the page cursor kept in a
 * `sync_runs` row (job 'activities') so an interrupted round resumes where it was, and the master account (read off
 * the virtual accounts' belong_account_id, or configured) unless the upstream refuses to list it.
 * Progress in that row: done/total = accounts, checked = activity rows read, fixed = rows new or changed,
 * errors = accounts that failed. Change notices: topic "activities".
 *
 * One sweeper at a time: the event service's leader runs the rounds (server/events/service.ts); pages ask for one
 * with `requestActivitiesSweep` and read `activitiesFreshness`.
 */
export const ACTIVITIES_TOPIC = "activities";

const DAY = 86_400_000;
const DEFAULT_RATE = 5;
const DEFAULT_DAYS = 400;
const DEFAULT_SETTLE_MS = 5_000;
const PAGE_SIZE = 200;
const ACCOUNT_PAGE_SIZE = 100;
/** A round stops (left running, to resume later) after this many accounts in a row failed: the upstream is down. */
const MAX_CONSECUTIVE_FAILURES = 5;

export interface SweepDeps {
  engine: Engine;
  client: BrokerClient;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
  /** Listing calls per second at most (ACTIVITIES_SWEEP_RATE; default 5, half the "account" group's 10/s). */
  rate?: number;
  /** How far back an account's first pass reaches, in days (ACTIVITIES_SWEEP_DAYS; default 400). */
  days?: number;
  /** A window ends this long before now (default 5 s). */
  settleMs?: number;
  /** Page size of the activity listing (1–200; default 200). */
  pageSize?: number;
  /** The master account when no virtual account names it (BROKER_MASTER_ACCOUNT_ID). */
  masterAccountId?: string;
  /** false: virtual accounts only. */
  master?: boolean;
  /** The clock (tests). */
  now?: () => number;
}

export interface SweepAccount {
  account_id: string;
  account_number?: string;
}

export interface AccountSweep {
  accountId: string;
  /** Listing calls made. */
  pages: number;
  /** Activity rows read. */
  fetched: number;
  /** Rows new or changed in the copy. */
  changed: number;
  /** The window was read to its end (false: aborted; it resumes from its cursor). */
  complete: boolean;
  /**
   * Another pass moved the account's state on (a second sweeper, or "Read this account again" resetting it) while
   * this one read: it stopped without writing its page, and the account's state is the other's.
   */
  superseded?: boolean;
  sweptUntil: string | null;
}

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

/** What the explorer's "as of" line shows (the type the browser reads). */
export type ActivitiesFreshness = ActivityFreshness;

/** `yyyy-MM-dd'T'HH:mm:ss.SSSZ`, the listing's time format (UTC, offset without a colon). */
export function wireTime(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+0000");
}

/** Waits for the next listing call's turn; returns early (not throwing) when `signal` aborts. */
type Pacer = (signal?: AbortSignal) => Promise<void>;
// One bucket per deps object: every sweep made with the same deps shares the rate. A bucket of one token refilled
// every 1/rate s: calls evenly spaced, never a burst.
const pacers = new WeakMap<SweepDeps, Pacer>();
function paceOf(d: SweepDeps): Pacer {
  let p = pacers.get(d);
  if (!p) {
    const bucket = new TokenBucket({ limit: 1, windowMs: 1000 / (d.rate ?? DEFAULT_RATE) });
    p = (signal) =>
      bucket.acquire(signal).catch((e) => {
        if (!signal?.aborted) throw e;
      });
    pacers.set(d, p);
  }
  return p;
}

const errorText = (e: unknown) => (isBrokerError(e) ? `${e.errorCode}: ${e.message}` : String((e as Error)?.message ?? e)).slice(0, 1000);
/** Refused for what was asked (not a transient failure): a 4xx other than 401 and 429. */
const isRefusal = (e: unknown) => isBrokerError(e) && e.status >= 400 && e.status < 500 && e.status !== 429 && e.status !== 401;
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** One activity as stored. Unknown types and sub types are kept raw; a missing time falls back on the trade date. */
function row(a: Activity) {
  const amount = a.net_amount ?? "";
  if (!NUMBER.test(amount)) throw new Error(`activity ${a.id}: net_amount "${amount}" is not a number`);
  const tradeDate = a.trade_date && DATE.test(a.trade_date) ? a.trade_date : null;
  const t = a.biz_time ? Date.parse(a.biz_time) : NaN;
  const bizTime = Number.isNaN(t) ? (tradeDate ? `${tradeDate}T00:00:00.000Z` : null) : new Date(t).toISOString();
  if (!bizTime) throw new Error(`activity ${a.id}: no biz_time`);
  return {
    id: a.id,
    account_number: a.account_number ?? null,
    activity_type: a.activity_type,
    activity_sub_type: a.activity_sub_type ?? null,
    currency: a.currency ?? "",
    market: a.market ?? null,
    symbol: a.symbol ?? null,
    quantity: a.quantity && NUMBER.test(a.quantity) ? a.quantity : null,
    net_amount: amount,
    trade_date: tradeDate,
    biz_time: bizTime,
    description: a.description ?? null,
  };
}

const COLUMNS = [
  "account_number",
  "activity_type",
  "activity_sub_type",
  "currency",
  "market",
  "symbol",
  "quantity",
  "net_amount",
  "trade_date",
  "biz_time",
  "description",
];

/** Upserts one page; returns how many rows were new or changed. */
async function store(tx: Queryable, account: SweepAccount, items: Activity[]): Promise<number> {
  if (!items.length) return 0;
  const byId = new Map<string, ReturnType<typeof row>>();
  for (const a of items) if (!byId.has(a.id)) byId.set(a.id, row(a));
  const { rows } = await tx.query(
    `INSERT INTO brokerdesk.activities AS a (account_id, id, ${COLUMNS.join(", ")})
     SELECT $1, r.id, COALESCE(r.account_number, $2), r.activity_type, r.activity_sub_type, r.currency, r.market, r.symbol, r.quantity::numeric,
            r.net_amount::numeric, r.trade_date::date, r.biz_time::timestamptz, r.description
       FROM jsonb_to_recordset($3::jsonb) AS r(id text, account_number text, activity_type text, activity_sub_type text, currency text, market text,
            symbol text, quantity text, net_amount text, trade_date text, biz_time text, description text)
     ON CONFLICT (account_id, id) DO UPDATE SET ${COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}, swept_at = now()
      WHERE (${COLUMNS.map((c) => `a.${c}`).join(", ")}) IS DISTINCT FROM (${COLUMNS.map((c) => `EXCLUDED.${c}`).join(", ")})
     RETURNING 1`,
    [account.account_id, account.account_number ?? null, JSON.stringify([...byId.values()])],
  );
  return rows.length;
}

/**
 * Sweeps one account: continues the pass in progress from its cursor, or opens a new window up to now − settle.
 * Throws on an upstream or storage error after recording it in the account's last_error (the cursor stays, so the
 * next attempt resumes; a cursor the upstream refuses is dropped and the window read again from its start).
 * Returns early (complete: false) when `signal` aborts.
 *
 * Every write of the pass's state is conditional on the state it read (compare and set): when another pass changed
 * it in between (two sweepers on one account, or a reset to read the account again), this pass stops without
 * writing (superseded) rather than put its window or cursor back over the other's.
 */
export async function sweepAccount(d: SweepDeps, account: SweepAccount, signal?: AbortSignal): Promise<AccountSweep> {
  const pace = paceOf(d);
  const now = d.now?.() ?? Date.now();
  const result: AccountSweep = { accountId: account.account_id, pages: 0, fetched: 0, changed: 0, complete: false, sweptUntil: null };
  const { rows } = await d.engine.query<{ swept_until: Date | null; window_end: Date | null; cursor: string | null }>(
    `INSERT INTO brokerdesk.activity_sweeps AS s (account_id, account_number, last_run_at) VALUES ($1, $2, now())
     ON CONFLICT (account_id) DO UPDATE SET account_number = COALESCE(EXCLUDED.account_number, s.account_number), last_run_at = now(), updated_at = now()
     RETURNING swept_until, window_end, cursor`,
    [account.account_id, account.account_number ?? null],
  );
  const state = rows[0];
  result.sweptUntil = iso(state.swept_until);
  let windowEnd = state.window_end ? new Date(state.window_end).getTime() : undefined;
  if (windowEnd === undefined) {
    const end = Math.floor(now - (d.settleMs ?? DEFAULT_SETTLE_MS));
    const from = state.swept_until ? new Date(state.swept_until).getTime() : end - (d.days ?? DEFAULT_DAYS) * DAY;
    if (end <= from) {
      await d.engine.query("UPDATE brokerdesk.activity_sweeps SET last_error = NULL WHERE account_id = $1", [account.account_id]);
      result.complete = true;
      return result;
    }
    windowEnd = end;
    const { rows: opened } = await d.engine.query(
      `UPDATE brokerdesk.activity_sweeps SET window_end = $2, cursor = NULL, updated_at = now()
        WHERE account_id = $1 AND window_end IS NULL AND swept_until IS NOT DISTINCT FROM $3 RETURNING 1`,
      [account.account_id, new Date(windowEnd), state.swept_until],
    );
    if (!opened.length) return { ...result, superseded: true };
  }
  // A first pass reaches back `days` from its window's end: the same start however often it resumes.
  const start = state.swept_until ? new Date(state.swept_until).getTime() : windowEnd - (d.days ?? DEFAULT_DAYS) * DAY;
  let cursor = state.window_end ? (state.cursor ?? undefined) : undefined;

  for (;;) {
    if (signal?.aborted) return result;
    await pace(signal);
    if (signal?.aborted) return result;
    let page: Awaited<ReturnType<BrokerClient["listAccountActivities"]>>;
    try {
      page = await d.client.listAccountActivities(
        {
          account_id: account.account_id,
          start_time: wireTime(start),
          end_time: wireTime(windowEnd),
          page_size: d.pageSize ?? PAGE_SIZE,
          ...(cursor ? { cursor } : {}),
        },
        { signal },
      );
      result.pages += 1;
    } catch (e) {
      if (signal?.aborted) return result;
      await recordError(d.engine, account.account_id, e, !!cursor && isRefusal(e));
      throw e;
    }
    if (page.nextCursor && page.nextCursor === cursor) {
      // It would page forever: the window is read again from its start next time.
      const e = new Error(`the upstream repeated the cursor ${cursor}`);
      await recordError(d.engine, account.account_id, e, true);
      throw e;
    }
    const last = !page.nextCursor;
    try {
      result.changed += await d.engine.transaction(async (tx) => {
        // Still the state this page was read from (the same window and cursor), or nothing is written.
        const { rows: moved } = await tx.query(
          `UPDATE brokerdesk.activity_sweeps
              SET ${last ? "swept_until = window_end, window_end = NULL, cursor = NULL, last_error = NULL" : "cursor = $5"},
                  fetched = fetched + $2, updated_at = now()
            WHERE account_id = $1 AND window_end = $3 AND cursor IS NOT DISTINCT FROM $4 RETURNING 1`,
          [account.account_id, page.items.length, new Date(windowEnd), cursor ?? null, ...(last ? [] : [page.nextCursor])],
        );
        if (!moved.length) throw SUPERSEDED;
        return store(tx, account, page.items);
      });
    } catch (e) {
      if (e === SUPERSEDED) return { ...result, superseded: true };
      await recordError(d.engine, account.account_id, e, false);
      throw e;
    }
    result.fetched += page.items.length;
    if (last) {
      result.complete = true;
      result.sweptUntil = new Date(windowEnd).toISOString();
      return result;
    }
    cursor = page.nextCursor;
  }
}

/** Thrown inside a page's transaction to roll it back when another pass moved the account's state on. */
const SUPERSEDED = new Error("the account's sweep state was moved on by another pass");

async function recordError(engine: Engine, accountId: string, e: unknown, dropCursor: boolean): Promise<void> {
  await engine.query(
    `UPDATE brokerdesk.activity_sweeps SET last_error = $2, cursor = CASE WHEN $3::boolean THEN NULL ELSE cursor END, updated_at = now() WHERE account_id = $1`,
    [accountId, errorText(e), dropCursor],
  );
}

interface RunRow {
  id: string;
  cursor: string | null;
  done: number;
  total: number | null;
  checked: number;
  fixed: number;
  errors: number;
  started_at: Date;
  last_error: string | null;
}

async function saveRun(engine: Engine, run: RunRow, status?: "done"): Promise<void> {
  await engine.query(
    `UPDATE brokerdesk.sync_runs SET cursor = $2, done = $3, total = $4, checked = $5, fixed = $6, errors = $7, last_error = $8,
            status = COALESCE($9, status), finished_at = CASE WHEN $9::text IS NULL THEN finished_at ELSE now() END
      WHERE id = $1`,
    [run.id, run.cursor, run.done, run.total, run.checked, run.fixed, run.errors, run.last_error, status ?? null],
  );
}

/**
 * One round over every account, resuming the round left unfinished (aborted, crashed, or stopped by an upstream
 * outage) if there is one. An account's error is recorded (its last_error, the round's errors) and the round goes
 * on; after several accounts in a row failed it stops, left running. Returns when done, stopped or aborted.
 */
export async function sweepActivities(d: SweepDeps, o: { signal?: AbortSignal; requestedBy?: string } = {}): Promise<SweepRound> {
  const { engine } = d;
  const pace = paceOf(d);
  const columns = "id::text, cursor, done, total, checked, fixed, errors, started_at, last_error";
  let run = (
    await engine.query<RunRow>(
      `SELECT ${columns} FROM brokerdesk.sync_runs WHERE job = 'activities' AND status = 'running' ORDER BY sync_runs.id DESC LIMIT 1`,
    )
  ).rows[0];
  if (!run) {
    const { rows } = await engine.query<RunRow>(
      `INSERT INTO brokerdesk.sync_runs (job, status, requested_by, total)
       VALUES ('activities', 'running', $1, (SELECT NULLIF(count(*), 0)::int FROM brokerdesk.activity_sweeps)) RETURNING ${columns}`,
      [o.requestedBy ?? null],
    );
    run = rows[0];
  } else {
    // Resumed: its counts from the accounts themselves (the last one may have ended after the run was saved).
    const {
      rows: [c],
    } = await engine.query<{ ok: number; failed: number }>(
      `SELECT count(*) FILTER (WHERE last_error IS NULL AND window_end IS NULL)::int AS ok, count(*) FILTER (WHERE last_error IS NOT NULL)::int AS failed
         FROM brokerdesk.activity_sweeps WHERE last_run_at >= $1`,
      [run.started_at],
    );
    run.done = Number(c.ok) + Number(c.failed);
    run.errors = Number(c.failed);
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
    const { rows: visited } = await engine.query<{ account_id: string; failed: boolean }>(
      `SELECT account_id, last_error IS NOT NULL AS failed FROM brokerdesk.activity_sweeps
        WHERE account_id = ANY($1) AND last_run_at >= $2 AND (last_error IS NOT NULL OR window_end IS NULL)`,
      [accounts.map((a) => a.account_id), r.started_at],
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
          const { rows: gone } = await engine.query(
            "DELETE FROM brokerdesk.activity_sweeps WHERE account_id = $1 AND swept_until IS NULL RETURNING 1",
            [account.account_id],
          );
          if (gone.length) {
            d.log?.("info", "the upstream does not list the master account's activities; the sweep leaves it out", { err: errorText(e) });
            continue;
          }
        }
        if (!retry) {
          r.done += 1;
          r.errors += 1;
        }
        r.last_error = `${account.account_number ?? account.account_id}: ${errorText(e)}`;
        failures += 1;
        d.log?.("warn", "sweeping an account's activities failed; the next round retries it", {
          account_id: account.account_id,
          err: errorText(e),
        });
      }
      if (r.total !== null && r.done > r.total) r.total = r.done;
      await saveRun(engine, r);
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
        await saveRun(engine, r, "done");
        await notify();
        return view(true);
      }
      r.cursor = page.nextCursor;
      await saveRun(engine, r);
    }
  } catch (e) {
    if (!o.signal?.aborted) {
      r.last_error = errorText(e);
      await saveRun(engine, r);
      await notify();
      throw e;
    }
  }
  // Aborted or stopped: left running; the next round resumes it.
  await saveRun(engine, r);
  await notify();
  return view(false);
}

/** A reviewer's "sweep now": the event service's leader starts a round at once (another process on a server). */
export async function requestActivitiesSweep(engine: Engine, by: string): Promise<{ requestedAt: string }> {
  const { rows } = await engine.query<{ at: Date }>(
    "UPDATE brokerdesk.event_stream SET activities_sweep_requested_at = now(), activities_sweep_requested_by = $1 WHERE id = 'upstream' RETURNING activities_sweep_requested_at AS at",
    [by],
  );
  await notifyChange(engine, { topics: [ACTIVITIES_TOPIC], accounts: [] });
  return { requestedAt: new Date(rows[0].at).toISOString() };
}

/** What the explorer's "as of" line says, for all accounts or one. A few indexed reads; no upstream call. */
export async function activitiesFreshness(engine: Queryable, accountId?: string): Promise<ActivitiesFreshness> {
  const scope = accountId ? "WHERE account_id = $1" : "";
  const params = accountId ? [accountId] : [];
  const {
    rows: [s],
  } = await engine.query<{ accounts: number; swept: number; as_of: Date | null }>(
    `SELECT count(*)::int AS accounts, count(swept_until)::int AS swept, min(swept_until) AS as_of FROM brokerdesk.activity_sweeps ${scope}`,
    params,
  );
  const {
    rows: [failed],
  } = await engine.query<{ account_id: string; account_number: string | null; last_error: string }>(
    `SELECT account_id, account_number, last_error FROM brokerdesk.activity_sweeps ${scope ? `${scope} AND` : "WHERE"} last_error IS NOT NULL
      ORDER BY last_run_at DESC NULLS LAST LIMIT 1`,
    params,
  );
  const {
    rows: [run],
  } = await engine.query<{
    status: string;
    done: number;
    total: number | null;
    checked: number;
    started_at: Date;
    last_error: string | null;
  }>(
    "SELECT status, done, total, checked, started_at, last_error FROM brokerdesk.sync_runs WHERE job = 'activities' ORDER BY sync_runs.id DESC LIMIT 1",
  );
  const {
    rows: [req],
  } = await engine.query<{ at: Date | null }>(
    `SELECT activities_sweep_requested_at AS at FROM brokerdesk.event_stream
      WHERE id = 'upstream' AND activities_sweep_requested_at > COALESCE((SELECT max(started_at) FROM brokerdesk.sync_runs WHERE job = 'activities'), '-infinity')`,
  );
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

/**
 * Reads one account's history again from the start (`days` back) at the next round, which it asks for: for history
 * the upstream wrote after its window was swept (a back-dated correction). Rows already copied stay; those read
 * again are upserted. A pass in progress on the account ends with nothing swept, so the next one starts over.
 */
export async function resetAccountSweep(engine: Engine, accountId: string, by: string): Promise<{ requestedAt: string }> {
  await engine.query(
    "UPDATE brokerdesk.activity_sweeps SET swept_until = NULL, window_end = NULL, cursor = NULL, last_error = NULL, updated_at = now() WHERE account_id = $1",
    [accountId],
  );
  return requestActivitiesSweep(engine, by);
}
