import "server-only";
import { AppError, runFailureMessage } from "@/lib/errors";
import type { Activity } from "@/lib/schemas/account-data";
import type { BrokerClient } from "@/server/broker/client";
import {
  advanceWindow,
  clearAccountError,
  openWindow,
  recordAccountError,
  startAccountPass,
  upsertActivities,
  type StoredActivity,
} from "./queries/sweep";
import { isRefusal, iso, paceOf, type SweepAccount, type SweepDeps } from "./sweep-deps";

/**
 * One account's pass of the activities sweep. The desk's copy of account activities (brokerdesk.activities) serves
 * the explorer across accounts; the upstream lists activities one account at a time within the "account" rate
 * group, so a sweep fills the copy per account, incrementally by time, paced to a share of that budget.
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
 */

const DAY = 86_400_000;
const DEFAULT_DAYS = 400;
const DEFAULT_SETTLE_MS = 5_000;
const PAGE_SIZE = 200;

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

/** `yyyy-MM-dd'T'HH:mm:ss.SSSZ`, the listing's time format (UTC, offset without a colon). */
export function wireTime(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+0000");
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What the upstream sent that the pass cannot take: its words are the account's error as staff read it. */
const upstreamProblem = (message: string) => new AppError("UPSTREAM_DATA", message);

/** One activity as stored. Unknown types and sub types are kept raw; a missing time falls back on the trade date. */
function row(a: Activity): StoredActivity {
  const amount = a.net_amount ?? "";
  if (!NUMBER.test(amount)) throw upstreamProblem(`activity ${a.id}: net_amount "${amount}" is not a number`);
  const tradeDate = a.trade_date && DATE.test(a.trade_date) ? a.trade_date : null;
  const t = a.biz_time ? Date.parse(a.biz_time) : NaN;
  const bizTime = Number.isNaN(t) ? (tradeDate ? `${tradeDate}T00:00:00.000Z` : null) : new Date(t).toISOString();
  if (!bizTime) throw upstreamProblem(`activity ${a.id}: no biz_time`);
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

/** Upserts one page; returns how many rows were new or changed. */
function store(tx: Parameters<typeof upsertActivities>[0], account: SweepAccount, items: Activity[]): Promise<number> {
  const byId = new Map<string, StoredActivity>();
  for (const a of items) if (!byId.has(a.id)) byId.set(a.id, row(a));
  return upsertActivities(tx, account.account_id, account.account_number ?? null, [...byId.values()]);
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
  const state = await startAccountPass(d.engine, account.account_id, account.account_number ?? null);
  result.sweptUntil = iso(state.swept_until);
  let windowEnd = state.window_end ? new Date(state.window_end).getTime() : undefined;
  if (windowEnd === undefined) {
    const end = Math.floor(now - (d.settleMs ?? DEFAULT_SETTLE_MS));
    const from = state.swept_until ? new Date(state.swept_until).getTime() : end - (d.days ?? DEFAULT_DAYS) * DAY;
    if (end <= from) {
      await clearAccountError(d.engine, account.account_id);
      result.complete = true;
      return result;
    }
    windowEnd = end;
    if (!(await openWindow(d.engine, account.account_id, new Date(windowEnd), state.swept_until))) return { ...result, superseded: true };
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
      const e = upstreamProblem(`the upstream repeated the cursor ${cursor}`);
      await recordError(d.engine, account.account_id, e, true);
      throw e;
    }
    const last = !page.nextCursor;
    try {
      result.changed += await d.engine.transaction(async (tx) => {
        // Still the state this page was read from (the same window and cursor), or nothing is written.
        const moved = await advanceWindow(tx, {
          accountId: account.account_id,
          fetched: page.items.length,
          windowEnd: new Date(windowEnd),
          cursor: cursor ?? null,
          nextCursor: last ? undefined : page.nextCursor,
        });
        if (!moved) throw SUPERSEDED;
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

/** The account's error as the explorer shows it (a safe message); the callers log the error itself. */
function recordError(engine: SweepDeps["engine"], accountId: string, e: unknown, dropCursor: boolean): Promise<void> {
  return recordAccountError(engine, accountId, runFailureMessage(e), dropCursor);
}
