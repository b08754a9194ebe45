import "server-only";
import { runFailureMessage } from "@/lib/errors";
import type { OrderCheck } from "@/lib/schemas/order-check";
import { NotFoundError } from "@/lib/errors";
import { rememberAccountNumbers, resolveAccount } from "@/server/accounts/directory";
import { applyOrderGroup } from "@/server/books/snapshots";
import type { BrokerClient } from "@/server/broker/client";
import { errorText, isBrokerError } from "@/server/broker/errors";
import { TokenBucket } from "@/server/broker/rate-budget";
import type { Engine } from "@/server/db/engine";
import { backoffMs, sleep } from "@/server/timing";
import {
  saveSweepAttempt,
  selectBookOpenOrders,
  selectNextSweepAccount,
  selectSweepState,
  wantSweep,
  type SweepStateRow,
} from "./queries/sweep";

/**
 * The open-orders sweep. The upstream sends no event when an order is accepted, so an order a customer placed in
 * their own app is in the books only once the desk asks: this loop asks, one account at a time, within its share of
 * the order-query budget (ORDERS_SWEEP_RATE calls a second; the upstream allows 1). Each account's open orders enter
 * the books through the same snapshot path as every detail call (stored as events, projected, live to the pages);
 * an order the books hold open that the upstream no longer lists gets one detail call, so its end is recorded too.
 *
 * Which account next (`selectNextSweepAccount`): one staff asked about (opening the account, filtering the blotter by
 * it, "Check now"), then accounts with open or recently changed orders not tried for `hotMs`, then the one tried
 * longest ago; a busy account's extra turn is always followed by a turn of the round, so a full cycle over N accounts
 * takes N / rate seconds, at most twice that when many accounts are busy (plus the requests people make).
 * The loop is the `orders-sweep` job (server/jobs): one at a time across instances, resumed by its schedule.
 */

export interface OrderSweepDeps {
  engine: Engine;
  client: BrokerClient;
  /** Listing and detail calls per second at most (ORDERS_SWEEP_RATE). */
  rate: number;
  /** An account with open or recent orders comes round at least this often, budget allowing (ORDERS_SWEEP_HOT_MS). */
  hotMs: number;
  /** The accounts are listed again after this long, so new ones join the sweep (default 10 minutes). */
  relistMs?: number;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
}

/** "Recent" orders, for the sweep's order: changed within this. */
const RECENT_MS = 15 * 60_000;
const ACCOUNT_PAGE_SIZE = 100;
const ORDER_PAGE_SIZE = 100;
/** Books-open orders the upstream no longer lists that one visit asks about (the rest on the next visit). */
const MAX_DETAIL_CALLS = 10;

export interface SweepTotals {
  checked: number;
  found: number;
  errors: number;
}

type Pace = (signal?: AbortSignal) => Promise<void>;

/** Calls spaced evenly at `rate` a second (a bucket of one token: never a burst). */
export function pacer(rate: number): Pace {
  const bucket = new TokenBucket({ limit: 1, windowMs: 1000 / rate });
  return (signal) => bucket.acquire(signal);
}

/**
 * Reads one account's open orders (every page) into the books, then asks about the orders the books hold open that
 * the upstream did not list. Answers how many are open upstream and how many changed the books.
 */
export async function checkAccountOrders(
  d: Pick<OrderSweepDeps, "engine" | "client">,
  accountId: string,
  pace: Pace,
  signal?: AbortSignal,
): Promise<{ openOrders: number; found: number }> {
  const listed = new Set<string>();
  let found = 0;
  const apply = async (group: Parameters<typeof applyOrderGroup>[2]) => {
    for (const result of (await applyOrderGroup(d.engine, accountId, group)).values()) {
      if (result === "diverged" || result === "enriched") found += 1;
    }
  };
  let cursor: string | undefined;
  do {
    await pace(signal);
    const page = await d.client.listOpenOrders({ account_id: accountId, page_size: ORDER_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    for (const group of page.items) {
      for (const order of group.orders) listed.add(order.client_order_id);
      await apply(group);
    }
    cursor = page.nextCursor;
  } while (cursor);

  const gone = (await selectBookOpenOrders(d.engine, accountId)).filter((coid) => !listed.has(coid)).slice(0, MAX_DETAIL_CALLS);
  for (const coid of gone) {
    await pace(signal);
    try {
      await apply(await d.client.getOrder({ account_id: accountId, client_order_id: coid }));
    } catch (error) {
      // Unknown upstream (refused at placement): nothing more to learn from it here.
      if (!(isBrokerError(error) && error.status === 404)) throw error;
    }
  }
  return { openOrders: listed.size, found };
}

/**
 * Every virtual account into the directory (the sweep's list of accounts), page by page; the master accounts they
 * belong to into `masters` (the directory names them too, for the pages, but they are not swept).
 */
async function listAccounts(d: OrderSweepDeps, masters: Set<string>, signal?: AbortSignal): Promise<number> {
  let cursor: string | undefined;
  let n = 0;
  do {
    const page = await d.client.listVirtualAccounts({ page_size: ACCOUNT_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    await rememberAccountNumbers(d.engine, page.items);
    for (const a of page.items) if (a.belong_account_id) masters.add(a.belong_account_id);
    n += page.items.length;
    cursor = page.nextCursor;
  } while (cursor && !signal?.aborted);
  return n;
}

/** What a sweep keeps between the job's runs in one process: its pace and when it last listed the accounts. */
export interface SweepMemory {
  pace: Pace;
  listedAt: number;
  /** The master accounts the listing named (never swept). */
  masters?: Set<string>;
}

/**
 * The loop: the next account, checked and recorded, again and again until `signal` aborts. An account's failure is
 * recorded on it and the loop goes on; failures in a row (the upstream down) space the attempts out.
 */
export async function runOrderSweep(d: OrderSweepDeps, memory: SweepMemory, signal: AbortSignal): Promise<SweepTotals> {
  const totals: SweepTotals = { checked: 0, found: 0, errors: 0 };
  let failures = 0;
  let hotTurn = false;
  while (!signal.aborted) {
    try {
      if (Date.now() - memory.listedAt > (d.relistMs ?? 600_000)) {
        await listAccounts(d, (memory.masters ??= new Set()), signal);
        memory.listedAt = Date.now();
      }
      const now = Date.now();
      // After a busy account's extra turn, the round's turn: at least half the calls go round every account.
      const next = await selectNextSweepAccount(d.engine, {
        hotMs: d.hotMs,
        recentSince: new Date(now - RECENT_MS),
        hot: !hotTurn,
        skip: [...(memory.masters ?? [])],
      });
      hotTurn = next?.tier === 1;
      if (!next) {
        await sleep(1_000, signal);
        continue;
      }
      try {
        const result = await checkAccountOrders(d, next.account_id, memory.pace, signal);
        await saveSweepAttempt(d.engine, next.account_id, next.started_at, { ok: true, ...result });
        totals.checked += 1;
        totals.found += result.found;
        failures = 0;
      } catch (error) {
        if (signal.aborted) break;
        // What the order check line shows staff: a safe message; the error itself is logged below.
        await saveSweepAttempt(d.engine, next.account_id, next.started_at, { ok: false, error: runFailureMessage(error) });
        throw error;
      }
    } catch (error) {
      if (signal.aborted) break;
      totals.errors += 1;
      failures += 1;
      d.log?.("warn", "open-orders sweep: an attempt failed", { err: errorText(error, 500), failures });
      if (failures >= 3) await sleep(backoffMs(failures - 2, { baseMs: 1_000, maxMs: 5_000, jitter: "equal" }), signal);
    }
  }
  return totals;
}

const view = (accountId: string, row: SweepStateRow | undefined): OrderCheck => ({
  accountId,
  checkedAt: row?.checked_at ? new Date(row.checked_at).toISOString() : null,
  pending: !!row?.wanted_at && (!row.attempted_at || new Date(row.wanted_at) > new Date(row.attempted_at)),
  openOrders: row?.checked_at ? row.open_orders : null,
  lastError: row?.last_error ?? null,
});

/**
 * An account the staff are looking at (an id or number): a check asked for unless one succeeded within `freshMs`
 * (0, the default: always, so what the customer placed before the look is listed); `peek` only reads the state (a
 * poll while the check is on its way must not ask again, or it would never be answered). An account the directory
 * does not know (so the sweep would never reach it) is a NotFoundError.
 */
export async function requestOrderCheck(engine: Engine, account: string, freshMs: number, peek = false): Promise<OrderCheck> {
  const { accountId, accountNumber } = await resolveAccount(engine, account);
  if (!accountNumber) throw new NotFoundError(`No account ${account} is known to the desk.`);
  const row = peek ? await selectSweepState(engine, accountId) : await wantSweep(engine, accountId, new Date(Date.now() - freshMs));
  return { ...view(accountId, row), accountNumber };
}
