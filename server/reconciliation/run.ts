import "server-only";
import Decimal from "decimal.js";
import { sweepAccount } from "@/server/activities/account-window";
import type { SweepAccount, SweepDeps } from "@/server/activities/sweep-deps";
import { DESK_ONLY_MOVEMENT_STATUSES, FINAL_MOVEMENT_STATUSES } from "@/server/books/changes";
import type { BrokerClient } from "@/server/broker/client";
import { errorText, isBrokerError } from "@/server/broker/errors";
import { collectAll } from "@/server/broker/pagination";
import type { Engine } from "@/server/db/engine";
import { workOpenRuns } from "@/server/jobs/open-runs";
import { notifyChange } from "@/server/notices/channel";
import { AppError, runFailureMessage, userMessageOf } from "@/lib/errors";
import type { OmnibusLine, ReconciliationRun, RunSummary } from "@/lib/schemas/reconciliation";
import {
  accountNumbers,
  countOpenBreaks,
  deskCash,
  deskPositions,
  failRun,
  finishRun,
  lateMovements,
  recordBreaks,
  saveProgress,
  startOpenRun,
  sweptUntil,
  type FoundBreak,
} from "./queries";
import { RECONCILIATION_TOPIC } from "./breaks";

/**
 * End-of-day reconciliation: the desk's books against the upstream, account by account (the master account and every
 * virtual account the upstream lists under it).
 *
 * The books' side of an account is its copy of the upstream's activities (brokerdesk.activities): every cash change
 * carries its signed net amount, so a currency's balance at a moment is the sum of the activities up to it; stock
 * trades, journals and transfers carry their signed quantity, so a position is the sum of theirs (an account whose
 * positions moved without one, by a multi-leg trade or an exercise, has its cash compared and not its positions). A balance
 * changed at the upstream without an activity (a correction nobody recorded, money gone missing) shows as a break;
 * what customers do outside the desk (a journal made directly, an order filled) comes with its activity and does not.
 *
 * A comparison at one moment: each account's balance and positions are read first (that read's time is the cut-off),
 * then, once the activities' settle margin has passed, the account's activities are copied up to now and summed up to
 * the cut-off. An activity written while its balance was being read could still fall on the wrong side of the cut-off,
 * so an account that differs is compared a second time, and only a difference seen both times is a break.
 *
 * Movements the desk sent and that are still not final well after their expected time are breaks too (the upstream
 * never answered, or the desk missed its answer). A break is kept by kind and subject: a difference that lasts is one
 * open break whose figures follow the latest run; staff assign, comment on and close it (server/reconciliation/breaks.ts).
 */
export interface ReconcileDeps {
  engine: Engine;
  client: BrokerClient;
  /** The activities copy's pass for one account (its pace, settle margin and reach back). */
  sweep: SweepDeps;
  log?: (level: "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
  /** How long after it is made a movement still not final is a break, in seconds, per kind (default EXPECTED_SECONDS). */
  expectedSeconds?: Record<string, number>;
  sleep?: (ms: number) => Promise<void>;
}

/** How long each kind of movement may take upstream before it counts as late. */
export const EXPECTED_SECONDS: Record<string, number> = {
  INSTANT_FUNDING: 15 * 60,
  INSTANT_EXCHANGE: 15 * 60,
  CASH_JOURNAL: 60 * 60,
  POSITION_JOURNAL: 60 * 60,
  FX_EXCHANGE: 24 * 60 * 60,
};
const SETTLE_MS = 5_000;

interface Account extends SweepAccount {
  master: boolean;
}

interface Reading {
  at: Date;
  cash: Map<string, string>;
  positions: Map<string, string>;
}

const dec = (v: string | undefined) => new Decimal(v ?? 0);
/** Why an account was not compared, as the run's summary shows staff: a safe message; the error itself is logged. */
const notComparedReason = (e: unknown) => userMessageOf(e, "an unexpected error (the server's log has it)");
const sleeper = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const notify = (d: ReconcileDeps) => notifyChange(d.engine, { topics: [RECONCILIATION_TOPIC], accounts: [] });

/** The upstream's accounts: every virtual account, and each master account they belong to. */
async function accountsOf(d: ReconcileDeps, signal: AbortSignal): Promise<Account[]> {
  const virtual = await collectAll((cursor) => d.client.listVirtualAccounts({ page_size: 100, ...(cursor ? { cursor } : {}) }, { signal }));
  const masters = new Map<string, string | undefined>();
  for (const a of virtual) if (a.belong_account_id) masters.set(a.belong_account_id, a.belong_account_number);
  if (!masters.size && d.sweep.masterAccountId) masters.set(d.sweep.masterAccountId, undefined);
  return [
    ...[...masters].map(([account_id, account_number]) => ({ account_id, account_number, master: true })),
    ...virtual.map((a) => ({ account_id: a.account_id, account_number: a.account_number, master: false })),
  ];
}

/** The upstream's cash per currency and positions of one account, and when they were read. */
async function readUpstream(d: ReconcileDeps, account: Account, signal: AbortSignal): Promise<Reading> {
  const [balance, positions] = await Promise.all([
    d.client.getBalance({ account_id: account.account_id }, { signal }),
    d.client.listPositions({ account_id: account.account_id }, { signal }),
  ]);
  const cash = new Map<string, string>();
  for (const c of balance?.account_currency_assets ?? []) if (c.currency) cash.set(c.currency, c.cash_balance ?? "0");
  const held = new Map<string, string>();
  for (const p of positions) {
    const key = `${p.market ?? "US"}:${p.symbol}`;
    held.set(key, dec(held.get(key)).plus(p.quantity).toFixed());
  }
  return { at: new Date(), cash, positions: held };
}

/** The account's activities copied at least up to `at`; false when the copy could not get there. */
async function copyActivities(d: ReconcileDeps, account: Account, at: Date, signal: AbortSignal): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await sweepAccount(d.sweep, account, signal);
    const until = await sweptUntil(d.engine, account.account_id);
    if (until && until.getTime() >= at.getTime()) return true;
    if (signal.aborted) return false;
    await (d.sleep ?? sleeper)(d.sweep.settleMs ?? SETTLE_MS);
  }
  return false;
}

interface Difference {
  kind: "cash" | "position";
  key: string;
  desk: string;
  upstream: string;
}

/** What differs between one reading and the books at its cut-off (positions only when the books can follow them). */
async function differences(d: ReconcileDeps, account: Account, r: Reading): Promise<{ diffs: Difference[]; desk: Map<string, string> }> {
  const [desk, held] = await Promise.all([deskCash(d.engine, account.account_id, r.at), deskPositions(d.engine, account.account_id, r.at)]);
  const diffs: Difference[] = [];
  for (const currency of new Set([...desk.keys(), ...r.cash.keys()])) {
    if (!dec(desk.get(currency)).eq(dec(r.cash.get(currency))))
      diffs.push({ kind: "cash", key: currency, desk: dec(desk.get(currency)).toFixed(), upstream: dec(r.cash.get(currency)).toFixed() });
  }
  if (!held.untraceable) {
    for (const key of new Set([...held.quantities.keys(), ...r.positions.keys()])) {
      if (!dec(held.quantities.get(key)).eq(dec(r.positions.get(key))))
        diffs.push({
          kind: "position",
          key,
          desk: dec(held.quantities.get(key)).toFixed(),
          upstream: dec(r.positions.get(key)).toFixed(),
        });
    }
  }
  return { diffs, desk };
}

function breakOf(account: Account, number: string | null, x: Difference, first: Reading, second: Reading): FoundBreak {
  const difference = new Decimal(x.upstream).minus(x.desk).toFixed();
  const name = number ?? account.account_id;
  const [market, symbol] = x.kind === "position" ? x.key.split(":") : [undefined, undefined];
  return {
    kind: x.kind,
    subject: `${account.account_id}:${x.key}`,
    accountId: account.account_id,
    accountNumber: number,
    currency: x.kind === "cash" ? x.key : null,
    symbol: symbol ?? null,
    deskValue: x.desk,
    upstreamValue: x.upstream,
    difference,
    summary:
      x.kind === "cash"
        ? `${name}: the upstream's ${x.key} cash is ${x.upstream}, the books' ${x.desk} (difference ${difference} ${x.key})`
        : `${name}: the upstream holds ${x.upstream} ${symbol} (${market}), the books ${x.desk} (difference ${difference})`,
    evidence: {
      master: account.master,
      readAt: [first.at.toISOString(), second.at.toISOString()],
      books: "sum of the account's activities up to the read",
      ...(x.kind === "cash"
        ? { upstreamCash: Object.fromEntries(second.cash) }
        : { upstreamPositions: Object.fromEntries(second.positions) }),
    },
  };
}

/** One run, from the accounts' listing to its summary; "stopped" when the signal ended it first (it is run again). */
export async function reconcileRun(d: ReconcileDeps, run: ReconciliationRun, signal: AbortSignal): Promise<"done" | "stopped"> {
  const accounts = await accountsOf(d, signal);
  const numbers = await accountNumbers(
    d.engine,
    accounts.map((a) => a.account_id),
  );
  const numberOf = (a: Account) => a.account_number ?? numbers.get(a.account_id) ?? null;
  await saveProgress(d.engine, run.id, 0, accounts.length);
  await notify(d);

  // First the upstream's figures of every account (the cut-offs), then its activities copied past them.
  const readings = new Map<string, Reading>();
  const notCompared: RunSummary["notCompared"] = [];
  const leaveOut = (a: Account, reason: string) => notCompared.push({ accountId: a.account_id, accountNumber: numberOf(a), reason });
  for (const a of accounts) {
    if (signal.aborted) return "stopped";
    try {
      readings.set(a.account_id, await readUpstream(d, a, signal));
    } catch (e) {
      if (signal.aborted) return "stopped";
      if (a.master && isBrokerError(e) && e.status >= 400 && e.status < 500) continue; // the upstream keeps its master's figures to itself
      d.log?.("warn", "reconciliation: an account's balance or positions not read", {
        run: run.id,
        account_id: a.account_id,
        err: errorText(e),
      });
      leaveOut(a, `balance or positions not read: ${notComparedReason(e)}`);
    }
  }
  const last = Math.max(0, ...[...readings.values()].map((r) => r.at.getTime()));
  await (d.sleep ?? sleeper)(Math.max(0, last + (d.sweep.settleMs ?? SETTLE_MS) - Date.now()));

  const found: FoundBreak[] = [];
  const totals = new Map<string, { masterDesk: Decimal; masterUpstream: Decimal; virtualDesk: Decimal; virtualUpstream: Decimal }>();
  let done = 0;
  let compared = 0;
  for (const a of accounts) {
    if (signal.aborted) return "stopped";
    const first = readings.get(a.account_id);
    if (first) {
      try {
        if (!(await copyActivities(d, a, first.at, signal))) {
          if (signal.aborted) return "stopped";
          leaveOut(a, "its activities could not be copied up to the balance's time");
        } else {
          let { diffs, desk } = await differences(d, a, first);
          let second = first;
          if (diffs.length) {
            // Seen once: read and copy again, and keep only what differs the same way twice.
            second = await readUpstream(d, a, signal);
            await (d.sleep ?? sleeper)(d.sweep.settleMs ?? SETTLE_MS);
            if (!(await copyActivities(d, a, second.at, signal)))
              throw new AppError("NOT_COMPARED", "its activities could not be copied for the second look");
            const again = await differences(d, a, second);
            diffs = again.diffs.filter((x) => diffs.some((y) => y.kind === x.kind && y.key === x.key));
            desk = again.desk;
          }
          compared += 1;
          for (const x of diffs) found.push(breakOf(a, numberOf(a), x, first, second));
          for (const currency of new Set([...desk.keys(), ...second.cash.keys()])) {
            const t = totals.get(currency) ?? {
              masterDesk: new Decimal(0),
              masterUpstream: new Decimal(0),
              virtualDesk: new Decimal(0),
              virtualUpstream: new Decimal(0),
            };
            if (a.master) {
              t.masterDesk = t.masterDesk.plus(dec(desk.get(currency)));
              t.masterUpstream = t.masterUpstream.plus(dec(second.cash.get(currency)));
            } else {
              t.virtualDesk = t.virtualDesk.plus(dec(desk.get(currency)));
              t.virtualUpstream = t.virtualUpstream.plus(dec(second.cash.get(currency)));
            }
            totals.set(currency, t);
          }
        }
      } catch (e) {
        if (signal.aborted) return "stopped";
        d.log?.("warn", "reconciliation: an account not compared", { run: run.id, account_id: a.account_id, err: errorText(e) });
        leaveOut(a, notComparedReason(e));
      }
    }
    done += 1;
    await saveProgress(d.engine, run.id, done, accounts.length);
    await notify(d);
  }

  for (const m of await lateMovements(d.engine, d.expectedSeconds ?? EXPECTED_SECONDS, [
    ...FINAL_MOVEMENT_STATUSES,
    ...DESK_ONLY_MOVEMENT_STATUSES,
  ])) {
    const what = m.symbol ? `${m.quantity ?? ""} ${m.symbol}`.trim() : `${m.amount ?? ""} ${m.currency ?? ""}`.trim();
    found.push({
      kind: "movement",
      subject: `${m.kind}:${m.client_request_id}`,
      accountId: m.account_id,
      accountNumber: null,
      currency: m.currency,
      symbol: m.symbol,
      summary: `${m.kind.replace("_", " ").toLowerCase()} ${m.client_request_id} (${what}) is still ${m.status}, made ${new Date(m.created_at).toISOString()}`,
      evidence: { kind: m.kind, clientRequestId: m.client_request_id, status: m.status, createdAt: new Date(m.created_at).toISOString() },
    });
  }

  const omnibus: OmnibusLine[] = [...totals]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([currency, t]) => ({
      currency,
      masterDesk: t.masterDesk.toFixed(),
      masterUpstream: t.masterUpstream.toFixed(),
      virtualDesk: t.virtualDesk.toFixed(),
      virtualUpstream: t.virtualUpstream.toFixed(),
    }));
  await d.engine.transaction(async (tx) => {
    const opened = await recordBreaks(tx, run.id, found);
    const summary: RunSummary = {
      accounts: accounts.length,
      compared,
      notCompared,
      omnibus,
      found: found.length,
      opened,
      open: await countOpenBreaks(tx),
    };
    await finishRun(tx, run.id, summary);
  });
  await notify(d);
  d.log?.("info", "reconciliation run done", { run: run.id, accounts: accounts.length, breaks: found.length });
  return "done";
}

/** The job's run: every open run, oldest first, until none is left or the slice ends (`again`: run it once more). */
export function runReconciliations(d: ReconcileDeps, signal: AbortSignal): Promise<{ again: boolean; runs: number }> {
  return workOpenRuns(signal, {
    start: () => startOpenRun(d.engine),
    work: (run) => reconcileRun(d, run, signal),
    // The log has the error; the run's row (served on the reconciliation page) only its safe message.
    fail: (run, e) => {
      d.log?.("error", "reconciliation run failed", { run: run.id, err: errorText(e) });
      return failRun(d.engine, run.id, runFailureMessage(e));
    },
    notify: () => notify(d),
    afterFailure: "throw",
  });
}
