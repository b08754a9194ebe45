import type pg from "pg";
import type { Queryable } from "@/server/db/engine";

/** What the load and the soak read of the desk's books and of the database's processes (SQL of scripts/load). */

/** Events the consumer stored from the stream so far (the newest seq of the table: its bigserial). */
export async function storedEvents(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: string | null }>("SELECT max(seq)::text AS n FROM brokerdesk.upstream_events");
  return Number(rows[0]?.n ?? 0);
}

/** The server processes serving a database (their CPU is the database's share of the load). */
export async function backendPids(db: Queryable, database: string): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database]);
  return rows.map((r) => r.pid);
}

/** A database of the load's own on the server (a name it made: letters, digits and underscores). */
export async function createDatabase(admin: Pick<pg.Client, "query">, name: string): Promise<void> {
  await admin.query(`CREATE DATABASE ${name}`);
}

export async function dropDatabase(admin: Pick<pg.Client, "query">, name: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** Whether the consumer holds the lease and its stream is connected. */
export async function streamConnected(db: Pick<pg.Client, "query">): Promise<boolean> {
  const { rows } = await db.query<{ connected: boolean }>("SELECT connected FROM brokerdesk.event_stream");
  return rows[0]?.connected === true;
}

/** A difference between the books and the upstream's state: what, and an example of it. */
export interface Difference {
  what: string;
  count: number;
  example: string | null;
}

/**
 * The books beside the sandbox's own state (schemas brokerdesk and sandbox of one database): every upstream order
 * once in the books with its status, and of what happened since `since` (the seed's history before the desk was
 * connected is not listed by the upstream) each order's fills (count and quantity), every funding, FX and journal
 * request once with its status. Empty when they agree.
 */
export async function booksAgainstUpstream(db: Queryable, since: Date): Promise<Difference[]> {
  const { rows } = await db.query<{ what: string; count: string; example: string | null }>(
    `
    WITH
      up_orders AS (SELECT account_id, client_order_id, status FROM sandbox.orders),
      bk_orders AS (
        SELECT account_id, client_order_id, count(*) AS n, max(status) AS status
          FROM brokerdesk.orders GROUP BY account_id, client_order_id),
      up_fills AS (
        SELECT account_id, client_order_id, count(*) AS n, sum(quantity) AS qty
          FROM sandbox.executions WHERE filled_at >= $1 GROUP BY 1, 2),
      bk_fills AS (
        SELECT account_id, client_order_id, count(*) AS n, sum(quantity) AS qty
          FROM brokerdesk.executions WHERE filled_at >= $1 GROUP BY 1, 2),
      up_moves AS (SELECT client_request_id, status FROM sandbox.requests WHERE created_at >= $1),
      bk_moves AS (
        SELECT client_request_id, count(*) AS n, max(status) AS status FROM brokerdesk.money_movements m
         WHERE NOT EXISTS (SELECT 1 FROM sandbox.requests r WHERE r.client_request_id = m.client_request_id AND r.created_at < $1)
         GROUP BY 1),
      diffs AS (
        SELECT 'order missing from the books' AS what, u.client_order_id AS example
          FROM up_orders u LEFT JOIN bk_orders b USING (account_id, client_order_id) WHERE b.n IS NULL
        UNION ALL
        SELECT 'order in the books more than once', client_order_id FROM bk_orders WHERE n > 1
        UNION ALL
        SELECT 'order status differs', u.client_order_id || ': upstream ' || u.status || ', books ' || b.status
          FROM up_orders u JOIN bk_orders b USING (account_id, client_order_id) WHERE u.status <> b.status
        UNION ALL
        SELECT 'fills differ', coalesce(u.client_order_id, b.client_order_id) || ': upstream ' || coalesce(u.n, 0) || ' / '
                 || coalesce(u.qty, 0) || ', books ' || coalesce(b.n, 0) || ' / ' || coalesce(b.qty, 0)
          FROM up_fills u FULL JOIN bk_fills b USING (account_id, client_order_id)
         WHERE u.n IS DISTINCT FROM b.n OR u.qty IS DISTINCT FROM b.qty
        UNION ALL
        SELECT 'movement missing from the books', u.client_request_id
          FROM up_moves u LEFT JOIN bk_moves b USING (client_request_id) WHERE b.n IS NULL
        UNION ALL
        SELECT 'movement in the books more than once', client_request_id FROM bk_moves WHERE n > 1
        UNION ALL
        SELECT 'movement status differs', u.client_request_id || ': upstream ' || u.status || ', books ' || b.status
          FROM up_moves u JOIN bk_moves b USING (client_request_id) WHERE u.status <> b.status)
    SELECT what, count(*)::text AS count, min(example) AS example FROM diffs GROUP BY what ORDER BY what`,
    [since.toISOString()],
  );
  return rows.map((r) => ({ what: r.what, count: Number(r.count), example: r.example }));
}

/** Counts the soak reports beside the comparison: the books' and the upstream's, and approvals by status. */
export async function soakCounts(db: Queryable): Promise<Record<string, number>> {
  const { rows } = await db.query<{ name: string; n: string }>(`
    SELECT 'upstream orders' AS name, count(*)::text AS n FROM sandbox.orders
    UNION ALL SELECT 'upstream executions', count(*)::text FROM sandbox.executions
    UNION ALL SELECT 'upstream movements', count(*)::text FROM sandbox.requests
    UNION ALL SELECT 'events stored', count(*)::text FROM brokerdesk.upstream_events
    UNION ALL SELECT 'approvals ' || status, count(*)::text FROM brokerdesk.approval_requests GROUP BY status`);
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}

/** The newest event of the upstream's outbox and the consumer's resume point (caught up when equal). */
export async function streamPosition(db: Queryable): Promise<{ upstream: string | null; books: string | null }> {
  const { rows } = await db.query<{ upstream: string | null; books: string | null }>(
    `SELECT (SELECT max(id)::text FROM sandbox.events) AS upstream, (SELECT last_event_id FROM brokerdesk.event_stream) AS books`,
  );
  return rows[0] ?? { upstream: null, books: null };
}
