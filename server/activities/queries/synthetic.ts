import "server-only";
import type { Queryable } from "@/server/db/engine";

/** The types synthetic rows cycle through, in order: row n has SYNTHETIC_ACTIVITY_TYPES[n % 5]. */
export const SYNTHETIC_ACTIVITY_TYPES = ["DEPOSIT", "WITHDRAW", "TRADE", "FEES", "DIVIDENDS"] as const;

/**
 * `count` activities straight into the desk's copy, for tests and benchmarks (one statement, generate_series).
 * Row n (1-based): account SYN-ACT-(n % accounts), type SYNTHETIC_ACTIVITY_TYPES[n % 5], currency USD unless
 * n % 7 = 0 (HKD), symbol AAPL for trades, net amount n (negative for withdrawals and fees), `start` + n seconds.
 */
export async function insertSyntheticActivities(
  q: Queryable,
  o: { count: number; accounts: number; start: Date; idPrefix?: string },
): Promise<void> {
  await q.query(
    `INSERT INTO brokerdesk.activities (account_id, id, account_number, activity_type, activity_sub_type, currency, market, symbol, quantity,
       net_amount, trade_date, biz_time, description)
     SELECT 'SYN-ACT-' || (n % $2), $4 || n, 'SYN' || lpad((n % $2)::text, 6, '0'),
            (ARRAY['DEPOSIT','WITHDRAW','TRADE','FEES','DIVIDENDS'])[n % 5 + 1], NULL,
            CASE WHEN n % 7 = 0 THEN 'HKD' ELSE 'USD' END,
            CASE WHEN n % 5 = 2 THEN 'US' END, CASE WHEN n % 5 = 2 THEN 'AAPL' END, CASE WHEN n % 5 = 2 THEN 1 END,
            CASE WHEN n % 5 IN (1, 3) THEN -n ELSE n END,
            ($3::timestamptz + n * interval '1 second')::date, $3::timestamptz + n * interval '1 second', 'Synthetic ' || n
       FROM generate_series(1, $1::int) AS n`,
    [o.count, o.accounts, o.start, o.idPrefix ?? "SYNACT"],
  );
}
