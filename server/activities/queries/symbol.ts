import "server-only";
import type { Queryable } from "@/server/db/engine";
import type { DeskPosition } from "@/lib/schemas/instrument-desk";

/**
 * Positions in a stock from the desk's copy of account activities: per account whose activities the desk has read,
 * the sum of the signed quantities of its trades and position journals in that symbol (what moved within the swept
 * window; shares held from before it are not in the copy), with the moment it was read up to. Accounts netting to
 * zero are left out. One range of the symbol index of migration 0040.
 */
export async function selectPositionsForSymbol(q: Queryable, market: string, symbol: string, limit = 100): Promise<DeskPosition[]> {
  const { rows } = await q.query<{ account_id: string; account_number: string | null; quantity: string; swept_until: Date | null }>(
    `SELECT a.account_id, COALESCE(max(d.account_number), max(a.account_number)) AS account_number, sum(a.quantity)::text AS quantity,
            max(s.swept_until) AS swept_until
       FROM brokerdesk.activities a
       LEFT JOIN brokerdesk.account_directory d ON d.account_id = a.account_id
       LEFT JOIN brokerdesk.activity_sweeps s ON s.account_id = a.account_id
      WHERE a.symbol = $1 AND (a.market = $2 OR a.market IS NULL) AND a.quantity IS NOT NULL
      GROUP BY a.account_id
     HAVING sum(a.quantity) <> 0
      ORDER BY abs(sum(a.quantity)) DESC, a.account_id
      LIMIT $3`,
    [symbol, market, limit],
  );
  return rows.map((r) => ({
    accountId: r.account_id,
    accountNumber: r.account_number,
    quantity: r.quantity,
    asOf: r.swept_until ? new Date(r.swept_until).toISOString() : null,
  }));
}
