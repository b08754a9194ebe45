import "server-only";
import type { Queryable } from "@/server/db/engine";
import { sqlLiterals } from "@/server/db/conditions";

/**
 * Synthetic orders written straight into the read model, for the blotter's tests and `npm run bench:orders` (one
 * statement, so 100,000 rows take seconds). Row `g` (1-based) is deterministic: account `SYN-ACC-(g % accounts)`,
 * symbol `SYMBOLS[g % 8]`, side BUY on odd g, status `STATUSES[g % 6]`, placed `g` seconds after `start`.
 */
export const SYNTHETIC_SYMBOLS = ["AAPL", "MSFT", "NVDA", "TSLA", "AMZN", "0700", "META", "GOOG"] as const;
export const SYNTHETIC_STATUSES = ["SUBMITTED", "FILLED", "CANCELLED", "PARTIAL_FILLED", "FAILED", "PENDING"] as const;

export async function insertSyntheticOrders(
  q: Queryable,
  o: { count: number; offset?: number; accounts?: number; start?: Date; seqBase?: number },
): Promise<void> {
  const start = o.start ?? new Date(Date.now() - o.count * 1000);
  const sql = (list: readonly string[]) => `(ARRAY[${sqlLiterals(list)}])`;
  await q.query(
    `INSERT INTO brokerdesk.orders (account_id, client_order_id, order_id, combo_type, symbol, market, instrument_type, side, order_type,
        time_in_force, quantity, filled_quantity, avg_filled_price, limit_price, status, placed_at, filled_at, updated_at, last_event_seq, detail_at)
     SELECT 'SYN-ACC-' || (n % $3), 'SYN' || n, 'O' || n, 'NORMAL', s.symbol, CASE WHEN s.symbol = '0700' THEN 'HK' ELSE 'US' END, 'EQUITY',
            CASE WHEN n % 2 = 1 THEN 'BUY' ELSE 'SELL' END, 'LIMIT', CASE WHEN n % 3 = 0 THEN 'GTC' ELSE 'DAY' END,
            100 + n % 50, CASE WHEN st.status = 'FILLED' THEN 100 + n % 50 ELSE 0 END,
            CASE WHEN st.status = 'FILLED' THEN 150.25 ELSE NULL END, 150 + (n % 100) / 4.0, st.status,
            $4::timestamptz + n * interval '1 second',
            CASE WHEN st.status = 'FILLED' THEN $4::timestamptz + n * interval '1 second' ELSE NULL END,
            $4::timestamptz + n * interval '1 second', $5::bigint + n, now()
       FROM generate_series($1::bigint + 1, $1::bigint + $2) AS n,
            LATERAL (SELECT ${sql(SYNTHETIC_SYMBOLS)}[1 + n % 8] AS symbol) s,
            LATERAL (SELECT ${sql(SYNTHETIC_STATUSES)}[1 + n % 6] AS status) st`,
    [o.offset ?? 0, o.count, o.accounts ?? 100, start.toISOString(), o.seqBase ?? 0],
  );
}
