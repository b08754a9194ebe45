import "server-only";
import type { ActivityFilter } from "@/lib/schemas/activity-list";
import type { Queryable } from "@/server/db/engine";
import { keysetPage } from "@/server/db/keyset";

/**
 * The explorer's SQL over the desk's copy (`brokerdesk.activities`): keyset pages newest first by `(biz_time, uid)`,
 * each selective filter served by an index of migration 0040, and the filter's totals and chart summed in SQL
 * (numeric, no floats).
 */

const COLUMNS = `a.uid, a.id, a.account_id, a.account_number, a.activity_type, a.activity_sub_type, a.currency, a.market, a.symbol,
  a.quantity::text AS quantity, a.net_amount::text AS net_amount, to_char(a.trade_date, 'YYYY-MM-DD') AS trade_date, a.biz_time, a.description`;

export interface ActivityDbRow {
  uid: string;
  id: string;
  account_id: string;
  account_number: string | null;
  activity_type: string;
  activity_sub_type: string | null;
  currency: string;
  market: string | null;
  symbol: string | null;
  quantity: string | null;
  net_amount: string;
  trade_date: string | null;
  biz_time: Date | string;
  description: string | null;
}

const utcDay = (day: string, plusDays = 0) => new Date(Date.parse(`${day}T00:00:00.000Z`) + plusDays * 86_400_000);

/** The filter as SQL conditions numbered from `$offset+1` (the account already resolved to its id). */
function activityConditions(f: ActivityFilter & { accountId?: string }, offset = 0): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${offset + params.length}`));
  };
  if (f.type) add((p) => `a.activity_type = ${p}`, f.type);
  if (f.subType) add((p) => `a.activity_sub_type = ${p}`, f.subType);
  if (f.accountId) add((p) => `a.account_id = ${p}`, f.accountId);
  if (f.currency) add((p) => `a.currency = ${p}`, f.currency);
  if (f.market) add((p) => `a.market = ${p}`, f.market);
  if (f.symbol) add((p) => `a.symbol = ${p}`, f.symbol);
  if (f.from) add((p) => `a.biz_time >= ${p}`, utcDay(f.from));
  if (f.to) add((p) => `a.biz_time < ${p}`, utcDay(f.to, 1));
  if (f.min) add((p) => `abs(a.net_amount) >= ${p}::numeric`, f.min);
  if (f.max) add((p) => `abs(a.net_amount) <= ${p}::numeric`, f.max);
  return { where, params };
}

/** One keyset page of the copy under the filter (its account already resolved to `accountId`). */
export function selectActivityPage(
  q: Queryable,
  filter: ActivityFilter & { accountId?: string },
  page: { cursor?: string; limit: number },
): Promise<{ rows: ActivityDbRow[]; nextCursor?: string }> {
  const { where, params } = activityConditions(filter);
  return keysetPage<ActivityDbRow>(q, {
    columns: COLUMNS,
    from: "brokerdesk.activities a",
    where,
    params,
    sort: "a.biz_time",
    tiebreak: "a.uid",
    desc: true,
    cursor: page.cursor,
    limit: page.limit,
  });
}

/** The filter's totals by currency: count, net, credits and debits (decimal strings). */
export async function selectActivityTotals(
  q: Queryable,
  filter: ActivityFilter & { accountId?: string },
): Promise<{ currency: string; count: string; net: string; credits: string | null; debits: string | null }[]> {
  const { where, params } = activityConditions(filter);
  const cond = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const { rows } = await q.query<{ currency: string; count: string; net: string; credits: string | null; debits: string | null }>(
    `SELECT a.currency, count(*)::text AS count, sum(a.net_amount)::text AS net,
            sum(a.net_amount) FILTER (WHERE a.net_amount > 0)::text AS credits, sum(a.net_amount) FILTER (WHERE a.net_amount < 0)::text AS debits
       FROM brokerdesk.activities a ${cond} GROUP BY a.currency ORDER BY a.currency`,
    params,
  );
  return rows;
}

/** The filter's net by UTC day, type and currency within [from, to). */
export async function selectActivityChart(
  q: Queryable,
  filter: ActivityFilter & { accountId?: string },
  from: Date,
  to: Date,
): Promise<{ day: string; type: string; currency: string; net: string }[]> {
  const { where, params } = activityConditions(filter);
  const { rows } = await q.query<{ day: string; type: string; currency: string; net: string }>(
    `SELECT to_char(a.biz_time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, a.activity_type AS type, a.currency, sum(a.net_amount)::text AS net
       FROM brokerdesk.activities a
      WHERE ${[...where, `a.biz_time >= $${params.length + 1}`, `a.biz_time < $${params.length + 2}`].join(" AND ")}
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    [...params, from, to],
  );
  return rows;
}
