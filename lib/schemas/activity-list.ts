import { z } from "zod";
import { ACTIVITY_SUB_TYPES, ACTIVITY_TYPES } from "@/lib/broker-enums";
import { enumLabel } from "@/lib/enums";
import { filterValue, listParams, type StateOf } from "@/lib/list-params";

/**
 * The activities explorer's URL state, rows and summary: the page, GET /api/activities and the CSV export parse with
 * these. Type and sub-type accept any upper-case word, so a value the desk does not know yet can be filtered on.
 */
const word = filterValue.word;
const day = filterValue.day;
const amount = z
  .string()
  .trim()
  .regex(/^\d{1,15}(\.\d{1,8})?$/)
  .optional()
  .catch(undefined);

export { ACTIVITY_SUB_TYPES, ACTIVITY_TYPES };

export const ACTIVITY_TYPE_LABELS: Record<(typeof ACTIVITY_TYPES)[number], string> = {
  ADJUSTMENT: "Adjustment",
  ALLOCATION: "Allocation",
  DEPOSIT: "Deposit",
  DIVIDENDS: "Dividends",
  EXECUTION: "Execution",
  FEES: "Fees",
  INTERESTS: "Interest",
  JOURNAL: "Journal",
  OPTION_EA: "Option exercise/assignment",
  REORGANIZATION: "Reorganization",
  SUBSCRIBE: "Subscription",
  TAX: "Tax",
  TRADE: "Trade",
  TRANSFER: "Transfer",
  WITHDRAW: "Withdrawal",
  OTHER: "Other",
};

export const activityFilterSchema = z.object({
  type: word,
  subType: word,
  /** One account: its id or its account number. */
  account: filterValue.account,
  currency: filterValue.currency,
  market: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2,8}$/)
    .optional()
    .catch(undefined),
  symbol: filterValue.symbol,
  /** On or after this day (UTC, of biz_time). */
  from: day,
  /** On or before this day (UTC). */
  to: day,
  /** The net amount's size (sign ignored): at least / at most. */
  min: amount,
  max: amount,
  /**
   * Where rows come from: one account reads live from the upstream (its default), every account from the desk's
   * copy. "desk" with an account reads that account's copy.
   */
  source: z.enum(["live", "desk"]).optional().catch(undefined),
});
export type ActivityFilter = z.infer<typeof activityFilterSchema>;
export type ActivitySource = NonNullable<ActivityFilter["source"]>;

export const activityListParams = listParams({ filters: activityFilterSchema.shape, sizes: [50, 100, 200], defaultSize: 50 });
export type ActivityListParams = StateOf<typeof activityListParams>;

/** Rows come live from the upstream only for one account, unless the desk's copy is asked for. */
export function isLive(f: Pick<ActivityFilter, "account" | "source">): boolean {
  return !!f.account && f.source !== "desk";
}

/** One activity, as the browser gets it: decimals as strings, times as ISO strings; unknown enum values raw. */
export interface ActivityRow {
  /** Unique across accounts: account id / activity id. */
  uid: string;
  id: string;
  accountId: string;
  accountNumber: string | null;
  type: string;
  subType: string | null;
  currency: string;
  market: string | null;
  symbol: string | null;
  quantity: string | null;
  netAmount: string;
  tradeDate: string | null;
  bizTime: string;
  description: string | null;
}

export interface ActivityPage {
  rows: ActivityRow[];
  nextCursor?: string;
  source: ActivitySource;
}

/** The filter's sums in one currency. */
export interface ActivityCurrencyTotal {
  currency: string;
  count: number;
  net: string;
  credits: string;
  debits: string;
}

/** Net amount of one type on one day in one currency: the chart's data. */
export interface ActivityDayPoint {
  day: string;
  type: string;
  currency: string;
  net: string;
}

export interface ActivitySummary {
  /** The copy's "as of" when these sums were read (a newer one on the status line offers a Refresh). */
  asOf: string | null;
  count: number;
  byCurrency: ActivityCurrencyTotal[];
  /** The days the chart covers (the filter's range, else the last CHART_DEFAULT_DAYS days). */
  chartFrom: string;
  chartTo: string;
  chart: ActivityDayPoint[];
}

/** The sweep's freshness, for every account or one (server/activities/sweep.ts `activitiesFreshness`). */
export interface ActivityFreshness {
  /** Everything before this instant is in the copy, for the accounts considered; null if one was never swept. */
  asOf: string | null;
  /** Accounts the sweep knows (one or none when an account is given), and how many of them were swept at least once. */
  accounts: number;
  swept: number;
  /** The round in progress (or interrupted, to be resumed). */
  running: { done: number; total: number | null; fetched: number; startedAt: string } | null;
  /** A "sweep now" request not yet answered by a round. */
  requestedAt: string | null;
  /** The latest error still standing (an account's, prefixed with its number; else the unfinished round's). */
  lastError: string | null;
}

export const CHART_DEFAULT_DAYS = 30;
/** The chart never spans more days than this (a wider range shows its last CHART_MAX_DAYS days). */
export const CHART_MAX_DAYS = 366;

export const activityTypeLabel = (t: string) => enumLabel(ACTIVITY_TYPE_LABELS, t);
