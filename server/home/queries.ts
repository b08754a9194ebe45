import "server-only";
import { OPEN_ORDER_STATUSES } from "@/lib/broker-enums";
import { FINAL_STATUSES as FINAL_MOVEMENT_STATUSES } from "@/lib/schemas/movement-list";
import type { Queryable } from "@/server/db/engine";

/** The home page's SQL: one indexed count a line of the start of the day, and the staff member's latest entries. */

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(", ");

const countOf = async (db: Queryable, sql: string) => Number((await db.query<{ n: string }>(sql)).rows[0]?.n ?? 0);

/** The blotter's "open" view: the partial index orders_open_listed answers it. */
export const countOpenOrders = (db: Queryable) =>
  countOf(db, `SELECT count(*)::text AS n FROM brokerdesk.orders WHERE status IN (${list(OPEN_ORDER_STATUSES)})`);

/** The partial index money_movements_open answers it. */
export const countOpenMovements = (db: Queryable) =>
  countOf(db, `SELECT count(*)::text AS n FROM brokerdesk.money_movements WHERE status NOT IN (${list(FINAL_MOVEMENT_STATUSES)})`);

/** The partial index approval_requests_expiring answers it. */
export const countPendingApprovals = (db: Queryable) =>
  countOf(db, "SELECT count(*)::text AS n FROM brokerdesk.approval_requests WHERE status = 'pending' AND expires_at > now()");

export const countOpenAlerts = (db: Queryable) => countOf(db, "SELECT count(*)::text AS n FROM brokerdesk.alerts WHERE status = 'open'");

type RecentRow = { seq: string; at: Date; action: string; target: string | null; outcome: string; target_name: string | null };

/**
 * The actor's latest audit entries, newest first, with what their target is called where the desk has a name for it:
 * a held request's summary, another staff member's email.
 */
export async function selectRecentEntries(db: Queryable, actorId: string, limit: number): Promise<RecentRow[]> {
  const { rows } = await db.query<RecentRow>(
    `SELECT e.seq::text, e.at, e.action, e.target, e.outcome,
            CASE split_part(e.target, ':', 1)
              WHEN 'approval' THEN (SELECT r.summary FROM brokerdesk.approval_requests r WHERE r.id::text = split_part(e.target, ':', 2))
              WHEN 'staff' THEN (SELECT s.email FROM brokerdesk.staff_users s WHERE s.id::text = split_part(e.target, ':', 2))
            END AS target_name
       FROM brokerdesk.audit_entries e WHERE actor_id = $1 ORDER BY e.seq DESC LIMIT $2`,
    [actorId, limit],
  );
  return rows;
}
