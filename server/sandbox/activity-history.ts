import "server-only";
import Decimal from "decimal.js";
import type { Queryable } from "@/server/db/engine";
import { requireAccount } from "./account-store";
import { illegal } from "./errors";
import { CURRENCIES, parseCurrency, parseDecimal } from "./money";
import { ACTIVITY_TYPES } from "@/lib/broker-enums";
import { parseTime } from "./validate";

/**
 * Synthetic account history for volume tests (control API `POST /sandbox/activities/generate`), and the totals an
 * end-to-end test compares the desk's copy with (`GET /sandbox/activities/totals`).
 *
 * Generated activities are history only: they are listed like any other activity but move no balance and emit no
 * event. Ids are derived from the request (account, range, count, types, currency and the row's number), so the
 * same request twice inserts nothing the second time.
 */
export const GENERATE_MAX = 100_000;
const DEFAULT_TYPES = ["DEPOSIT", "WITHDRAW", "DIVIDENDS", "INTERESTS", "FEES", "TAX"];

/** Sign and sub type per type: money in (+1), money out (−1), or alternating in and out (0). */
const SHAPE: Record<string, { sign: 1 | -1 | 0; sub: string; subOut?: string }> = {
  DEPOSIT: { sign: 1, sub: "WIRE_IN" },
  ALLOCATION: { sign: 1, sub: "INSTANT_FUNDING" },
  DIVIDENDS: { sign: 1, sub: "CASH_DIVIDEND" },
  INTERESTS: { sign: 1, sub: "CREDIT_INTEREST" },
  WITHDRAW: { sign: -1, sub: "WIRE_OUT" },
  FEES: { sign: -1, sub: "ADR_FEE" },
  TAX: { sign: -1, sub: "WITHHOLDING_TAX" },
  JOURNAL: { sign: 0, sub: "CASH_JOURNAL_IN", subOut: "CASH_JOURNAL_OUT" },
  TRANSFER: { sign: 0, sub: "ACATS_IN", subOut: "ACATS_OUT" },
  TRADE: { sign: 0, sub: "STOCK_TRADE" },
};

export interface GenerateInput {
  account_id?: unknown;
  count?: unknown;
  start_time?: unknown;
  end_time?: unknown;
  activity_types?: unknown;
  currency?: unknown;
  description?: unknown;
}

const time = (v: unknown, field: string): Date => {
  if (typeof v !== "string" || v === "") throw illegal(`${field} is required (yyyy-MM-ddTHH:mm:ss.SSSZ or ISO-8601).`);
  return parseTime(v, field)!;
};

/**
 * Inserts `count` activities spread evenly over [start_time, end_time) in one statement: the n-th (from 1) at
 * start + (end − start) × (n − 1) / count, to the millisecond; types taken in turn from `activity_types`.
 */
export async function generateActivities(db: Queryable, b: GenerateInput): Promise<{ inserted: number }> {
  const account = await requireAccount(db, b.account_id);
  const count = b.count;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > GENERATE_MAX)
    throw illegal(`count must be an integer from 1 to ${GENERATE_MAX}.`);
  const start = time(b.start_time, "start_time");
  const end = time(b.end_time, "end_time");
  if (end.getTime() <= start.getTime()) throw illegal("end_time must be after start_time.");
  const types = b.activity_types ?? DEFAULT_TYPES;
  if (!Array.isArray(types) || !types.length || types.some((t) => !(ACTIVITY_TYPES as readonly unknown[]).includes(t))) {
    throw illegal(`activity_types must be a non-empty list of ${ACTIVITY_TYPES.join(", ")}.`);
  }
  const currency = b.currency ?? "USD";
  if (!(CURRENCIES as readonly unknown[]).includes(currency)) throw illegal(`currency must be one of ${CURRENCIES.join(", ")}.`);
  if (b.description !== undefined && (typeof b.description !== "string" || b.description.length > 200))
    throw illegal("description must be a string of at most 200 characters.");
  const shapes = (types as string[]).map((t) => SHAPE[t] ?? { sign: 0 as const, sub: "OTHER" });
  const label = `activity:generated:${account.account_id}:${start.toISOString()}:${end.toISOString()}:${count}:${types.join(",")}:${currency}:`;
  const { rows } = await db.query<{ n: number }>(
    `WITH g AS (
       SELECT n, ((n - 1) % cardinality($5::text[])) + 1 AS k,
              date_trunc('milliseconds', $3::timestamptz + ($4::timestamptz - $3::timestamptz) * ((n - 1)::float8 / $2)) AS at,
              (((n::bigint * 7919) % 100000) + 1)::numeric / 100 AS amount
         FROM generate_series(1, $2::int) AS n
     ), ins AS (
       INSERT INTO sandbox.activities (id, account_id, activity_type, activity_sub_type, currency, net_amount, trade_date, biz_time, description, ref_type)
       SELECT md5($1 || g.n), $6, ($5::text[])[g.k],
              CASE WHEN ($7::int[])[g.k] = 0 AND g.n % 2 = 0 THEN COALESCE(($9::text[])[g.k], ($8::text[])[g.k]) ELSE ($8::text[])[g.k] END,
              $10,
              g.amount * CASE ($7::int[])[g.k] WHEN 0 THEN CASE WHEN g.n % 2 = 1 THEN 1 ELSE -1 END ELSE ($7::int[])[g.k] END,
              (g.at AT TIME ZONE 'UTC')::date, g.at, $11, 'GENERATED'
         FROM g
       ON CONFLICT (id) DO NOTHING
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM ins`,
    [
      label,
      count,
      start,
      end,
      types,
      account.account_id,
      shapes.map((s) => s.sign),
      shapes.map((s) => s.sub),
      shapes.map((s) => s.subOut ?? null),
      currency,
      b.description ?? "Generated history",
    ],
  );
  return { inserted: Number(rows[0].n) };
}

export interface TotalsRow {
  currency: string;
  count: number;
  /** The sum of the amounts as the listing shows them (2 decimals), without trailing zeros. */
  net_amount: string;
}

/**
 * Count and net amount per currency straight from the activities table, over every account (or one), with the
 * listing's filters: `activity_type` (comma list), `start_time` and `end_time` (both inclusive, as the listing).
 */
export async function activityTotals(db: Queryable, q: Record<string, string>): Promise<{ data: TotalsRow[] }> {
  const params: unknown[] = [];
  const where: string[] = [];
  const add = (sql: string, v: unknown) => (params.push(v), where.push(sql.replace("?", `$${params.length}`)));
  const types = q.activity_type?.split(",").filter(Boolean);
  if (types?.length) {
    for (const t of types) if (!(ACTIVITY_TYPES as readonly string[]).includes(t)) throw illegal(`activity_type ${t} is unknown.`);
    add("activity_type = ANY(?)", types);
  }
  const start = parseTime(q.start_time, "start_time");
  const end = parseTime(q.end_time, "end_time");
  if (start) add("biz_time >= ?", start);
  if (end) add("biz_time <= ?", end);
  if (q.currency) add("currency = ?", q.currency);
  if (q.account_id) add("account_id = ?", (await requireAccount(db, q.account_id)).account_id);
  const { rows } = await db.query<{ currency: string; count: number; net_amount: string }>(
    `SELECT currency, count(*)::int AS count, sum(round(net_amount, 2))::text AS net_amount FROM sandbox.activities
      ${where.length ? `WHERE ${where.join(" AND ")}` : ""} GROUP BY currency ORDER BY currency`,
    params,
  );
  return { data: rows.map((r) => ({ currency: r.currency, count: Number(r.count), net_amount: new Decimal(r.net_amount).toFixed() })) };
}

/**
 * A balance changed behind the desk's back (control API `POST /sandbox/balances/adjust`): the account's cash in one
 * currency moved by `amount` with no activity and no event, as a correction nobody recorded would. What the desk's
 * end-of-day reconciliation exists to find.
 */
export async function adjustBalance(db: Queryable, b: { account_id?: unknown; currency?: unknown; amount?: unknown }) {
  const account = await requireAccount(db, b.account_id);
  const currency = parseCurrency(b.currency, "currency");
  const amount = parseDecimal(b.amount, "amount");
  if (amount.isZero()) throw illegal("amount must not be zero.");
  const { rows } = await db.query<{ cash_balance: string }>(
    `INSERT INTO sandbox.cash_balances AS c (account_id, currency, cash_balance, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (account_id, currency) DO UPDATE SET cash_balance = c.cash_balance + excluded.cash_balance, updated_at = now()
     RETURNING cash_balance::text AS cash_balance`,
    [account.account_id, currency, amount.toFixed()],
  );
  return { account_id: account.account_id, currency, cash_balance: rows[0].cash_balance };
}
