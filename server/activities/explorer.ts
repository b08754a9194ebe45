import "server-only";
import {
  CHART_DEFAULT_DAYS,
  CHART_MAX_DAYS,
  activityTypeLabel,
  isLive,
  type ActivityFilter,
  type ActivityPage,
  type ActivityRow,
  type ActivitySummary,
} from "@/lib/schemas/activity-list";
import type { BrokerClient } from "@/server/broker/client";
import type { Activity } from "@/server/broker/schemas/accounts";
import type { Queryable } from "@/server/db/engine";
import { resolveAccount } from "@/server/accounts/directory";
import { wireTime } from "./account-window";
import { activitiesFreshness } from "./freshness";
import { selectActivityChart, selectActivityPage, selectActivityTotals, type ActivityDbRow as DbRow } from "./queries/explorer";
import { pagedCsvRows } from "@/lib/csv";
import { sizeWithin } from "@/lib/money";

/**
 * The activities explorer. Across accounts it reads the desk's copy (`brokerdesk.activities`, filled by the sweep):
 * keyset pages newest first by `(biz_time, uid)`, each selective filter served by an index of migration 0040, and
 * the filter's totals and chart summed in SQL (numeric, no floats). One account reads live from the upstream, one
 * upstream page per page shown.
 */

const toRow = (r: DbRow): ActivityRow => ({
  uid: r.uid,
  id: r.id,
  accountId: r.account_id,
  accountNumber: r.account_number,
  type: r.activity_type,
  subType: r.activity_sub_type,
  currency: r.currency,
  market: r.market,
  symbol: r.symbol,
  quantity: r.quantity,
  netAmount: r.net_amount,
  tradeDate: r.trade_date,
  bizTime: new Date(r.biz_time).toISOString(),
  description: r.description,
});

const utcDay = (day: string, plusDays = 0) => new Date(Date.parse(`${day}T00:00:00.000Z`) + plusDays * 86_400_000);

/** The filter with its account (a number or an id) resolved to the account id, once: `account` is then dropped. */
async function withAccount(q: Queryable, f: ActivityFilter & { accountId?: string }): Promise<ActivityFilter & { accountId?: string }> {
  return f.account ? { ...f, account: undefined, accountId: (await resolveAccount(q, f.account)).accountId } : f;
}

/** One page of the desk's copy. */
export async function listActivityPage(
  q: Queryable,
  filter: ActivityFilter & { accountId?: string },
  page: { cursor?: string; limit: number },
): Promise<ActivityPage> {
  const result = await selectActivityPage(q, await withAccount(q, filter), page);
  return { rows: result.rows.map(toRow), nextCursor: result.nextCursor, source: "desk" };
}

const fromUpstream = (a: Activity, accountId: string): ActivityRow => ({
  uid: `${a.account_id ?? accountId}/${a.id}`,
  id: a.id,
  accountId: a.account_id ?? accountId,
  accountNumber: a.account_number ?? null,
  type: a.activity_type,
  subType: a.activity_sub_type ?? null,
  currency: a.currency ?? "",
  market: a.market ?? null,
  symbol: a.symbol ?? null,
  quantity: a.quantity ?? null,
  netAmount: a.net_amount ?? "0",
  tradeDate: a.trade_date ?? null,
  bizTime: a.biz_time ?? "",
  description: a.description ?? null,
});

/**
 * One upstream page of one account's activities: type, sub-type and the date range go to the upstream; currency,
 * market, symbol and amount (which it does not take) narrow the page it answered, so a page may hold fewer rows.
 */
export async function liveActivityPage(
  client: BrokerClient,
  q: Queryable,
  filter: ActivityFilter,
  page: { cursor?: string; limit: number },
  signal?: AbortSignal,
): Promise<ActivityPage> {
  const { accountId } = await resolveAccount(q, filter.account!);
  const answer = await client.listAccountActivities(
    {
      account_id: accountId,
      page_size: page.limit,
      cursor: page.cursor,
      ...(filter.type ? { activity_types: [filter.type] } : {}),
      ...(filter.subType ? { activity_sub_type: [filter.subType] } : {}),
      ...(filter.from ? { start_time: wireTime(utcDay(filter.from).getTime()) } : {}),
      ...(filter.to ? { end_time: wireTime(utcDay(filter.to, 1).getTime() - 1) } : {}),
    },
    { signal },
  );
  const rows = answer.items
    .map((a) => fromUpstream(a, accountId))
    .filter(
      (r) =>
        (!filter.currency || r.currency === filter.currency) &&
        (!filter.market || r.market === filter.market) &&
        (!filter.symbol || r.symbol === filter.symbol) &&
        sizeWithin(r.netAmount, filter.min, filter.max),
    );
  return { rows, nextCursor: answer.nextCursor, source: "live" };
}

export function activityPage(
  client: () => BrokerClient,
  q: Queryable,
  filter: ActivityFilter,
  page: { cursor?: string; limit: number },
  signal?: AbortSignal,
) {
  return isLive(filter) ? liveActivityPage(client(), q, filter, page, signal) : listActivityPage(q, filter, page);
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The days the chart covers: the filter's range (its last CHART_MAX_DAYS days at most), else the last 30 days. */
export function chartRange(f: Pick<ActivityFilter, "from" | "to">, now = new Date()): { from: string; to: string } {
  const to = f.to ?? (f.from && f.from > isoDay(now) ? f.from : isoDay(now));
  const earliest = isoDay(utcDay(to, -(CHART_MAX_DAYS - 1)));
  const from = f.from ? (f.from < earliest ? earliest : f.from) : isoDay(utcDay(to, -(CHART_DEFAULT_DAYS - 1)));
  return { from, to };
}

/** "1500.0000" → "1500": a sum's scale is the widest operand's, which says nothing. */
const trimZeros = (d: string) => (d.includes(".") ? d.replace(/\.?0+$/, "") : d);

/**
 * The whole filter's totals by currency (count, net, credits, debits) and the chart's points (net by type, day and
 * currency over `chartRange`). It reads every matching row, so the page asks for it apart from the rows.
 */
export async function activitySummary(q: Queryable, filter: ActivityFilter, now = new Date()): Promise<ActivitySummary> {
  const f = await withAccount(q, filter);
  const range = chartRange(f, now);
  const [freshness, totals, chart] = await Promise.all([
    activitiesFreshness(q, f.accountId),
    selectActivityTotals(q, f),
    selectActivityChart(q, f, utcDay(range.from), utcDay(range.to, 1)),
  ]);
  const byCurrency = totals.map((r) => ({
    currency: r.currency,
    count: Number(r.count),
    net: trimZeros(r.net),
    credits: trimZeros(r.credits ?? "0"),
    debits: trimZeros(r.debits ?? "0"),
  }));
  return {
    asOf: freshness.asOf,
    count: byCurrency.reduce((n, t) => n + t.count, 0),
    byCurrency,
    chartFrom: range.from,
    chartTo: range.to,
    chart: chart.map((r) => ({ ...r, net: trimZeros(r.net) })),
  };
}

export const ACTIVITY_CSV_COLUMNS = [
  "Time (UTC)",
  "Trade date",
  "Account number",
  "Account id",
  "Type",
  "Type (raw)",
  "Sub-type",
  "Currency",
  "Net amount",
  "Market",
  "Symbol",
  "Quantity",
  "Description",
  "Activity id",
];

/** Every activity of the filter in the desk's copy, newest first, read 1,000 at a time as the download wants them. */
export async function* activityCsvRows(q: Queryable, filter: ActivityFilter): AsyncGenerator<(string | number | null)[]> {
  const f = { ...(await withAccount(q, filter)), source: "desk" as const };
  yield* pagedCsvRows(
    (cursor) => listActivityPage(q, f, { cursor, limit: 1000 }),
    (r) => [
      r.bizTime,
      r.tradeDate,
      r.accountNumber,
      r.accountId,
      activityTypeLabel(r.type),
      r.type,
      r.subType,
      r.currency,
      r.netAmount,
      r.market,
      r.symbol,
      r.quantity,
      r.description,
      r.id,
    ],
  );
}
