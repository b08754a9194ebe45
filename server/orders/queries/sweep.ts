import "server-only";
import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import { sqlLiterals } from "@/server/db/conditions";
import type { Queryable } from "@/server/db/engine";

/**
 * The open-orders sweep's SQL (brokerdesk.order_sweep, migration 0100). The accounts are the directory's (every account
 * the desk has listed); an account's row appears at its first attempt.
 */

const OPEN = sqlLiterals(OPEN_ORDER_STATUSES);

/**
 * The account to check next: one staff asked about first (tier 0), then, when `hot` allows, one the books hold open
 * or recently changed orders for that was not tried within `hotMs` and whose last try did not fail (tier 1: an
 * account the upstream no longer knows is not asked about every `hotMs`; measured on the database's clock, the one
 * an attempt is stamped with, so a busy account is due again after hotMs even within the same millisecond), else the one tried longest ago (never
 * tried first; tier 2). So every account comes round in turn, and the busy ones and the ones people look at
 * sooner. `skip`: accounts the directory names that are not virtual accounts (the master: the upstream lists no
 * orders for it and answers ACCOUNT_NOT_FOUND).
 */
export async function selectNextSweepAccount(
  q: Queryable,
  o: { hotMs: number; recentSince: Date; hot: boolean; skip?: string[] },
): Promise<{ account_id: string; account_number: string; tier: number; started_at: string } | undefined> {
  // started_at: the database's clock when the visit begins, the time its attempt is stamped with (wanted_at's clock),
  // as text: a JavaScript Date would cut its microseconds, and a look within the same millisecond (wanted_at) would
  // then stay "after" the visit that answered it, and the account be visited again.
  const { rows } = await q.query<{ account_id: string; account_number: string; tier: number; started_at: string }>(
    `SELECT account_id, account_number, tier, now()::text AS started_at FROM (
       SELECT d.account_id, d.account_number, s.attempted_at,
              CASE
                WHEN s.wanted_at IS NOT NULL AND s.wanted_at > COALESCE(s.attempted_at, '-infinity') THEN 0
                WHEN $3 AND s.last_error IS NULL
                 AND COALESCE(s.attempted_at, '-infinity') < now() - make_interval(secs => $1::double precision / 1000) AND EXISTS (
                       SELECT 1 FROM brokerdesk.orders o
                        WHERE o.account_id = d.account_id AND (o.status IN (${OPEN}) OR o.updated_at > $2)) THEN 1
                ELSE 2
              END AS tier
         FROM brokerdesk.account_directory d
         LEFT JOIN brokerdesk.order_sweep s ON s.account_id = d.account_id
        WHERE NOT (d.account_id = ANY($4::text[]))
     ) a
     ORDER BY tier, attempted_at ASC NULLS FIRST, account_id
     LIMIT 1`,
    [o.hotMs, o.recentSince, o.hot, o.skip ?? []],
  );
  return rows[0];
}

/**
 * An attempt's outcome, stamped with when it started (`at`: before its listing call), so a check asked for while it
 * ran stays wanted and is answered by the next visit. Success sets checked_at (and clears the error), failure keeps
 * the last success.
 */
export async function saveSweepAttempt(
  q: Queryable,
  accountId: string,
  at: Date | string,
  outcome: { ok: true; openOrders: number; found: number } | { ok: false; error: string },
): Promise<void> {
  if (outcome.ok) {
    await q.query(
      `INSERT INTO brokerdesk.order_sweep (account_id, attempted_at, checked_at, open_orders, found, last_error, updated_at)
       VALUES ($1, $4, $4, $2, $3, NULL, now())
       ON CONFLICT (account_id) DO UPDATE SET attempted_at = $4, checked_at = $4, open_orders = $2,
         found = order_sweep.found + $3, last_error = NULL, updated_at = now()`,
      [accountId, outcome.openOrders, outcome.found, at],
    );
  } else {
    await q.query(
      `INSERT INTO brokerdesk.order_sweep (account_id, attempted_at, last_error, updated_at) VALUES ($1, $3, $2, now())
       ON CONFLICT (account_id) DO UPDATE SET attempted_at = $3, last_error = $2, updated_at = now()`,
      [accountId, outcome.error, at],
    );
  }
}

export interface SweepStateRow {
  account_id: string;
  checked_at: Date | null;
  wanted_at: Date | null;
  attempted_at: Date | null;
  open_orders: number;
  last_error: string | null;
}

const STATE = "account_id, checked_at, wanted_at, attempted_at, open_orders, last_error";

export async function selectSweepState(q: Queryable, accountId: string): Promise<SweepStateRow | undefined> {
  const { rows } = await q.query<SweepStateRow>(`SELECT ${STATE} FROM brokerdesk.order_sweep WHERE account_id = $1`, [accountId]);
  return rows[0];
}

/**
 * Asks for a check of the account unless one succeeded after `freshSince`; answers the state either way. Asking
 * again while a check is waiting or running moves the request's time on, so the check that answers it starts after
 * it (an order placed a moment ago is listed).
 */
export async function wantSweep(q: Queryable, accountId: string, freshSince: Date): Promise<SweepStateRow> {
  const { rows } = await q.query<SweepStateRow>(
    `INSERT INTO brokerdesk.order_sweep AS s (account_id, wanted_at) VALUES ($1, now())
     ON CONFLICT (account_id) DO UPDATE SET wanted_at = now(), updated_at = now()
      WHERE COALESCE(s.checked_at, '-infinity') < $2
     RETURNING ${STATE}`,
    [accountId, freshSince],
  );
  return rows[0] ?? (await selectSweepState(q, accountId))!;
}

/** The client order ids the books hold open for the account (to ask about those the upstream no longer lists). */
export async function selectBookOpenOrders(q: Queryable, accountId: string): Promise<string[]> {
  const { rows } = await q.query<{ client_order_id: string }>(
    `SELECT client_order_id FROM brokerdesk.orders WHERE account_id = $1 AND status IN (${OPEN})`,
    [accountId],
  );
  return rows.map((r) => r.client_order_id);
}
