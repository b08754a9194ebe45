import "server-only";
import type { Queryable } from "@/server/db/engine";

/**
 * The statements domain's SQL. Figures come from the desk's books only: the copy of the account's activities
 * (brokerdesk.activities, filled by the activities sweep: every cash change of the account, trades net of their
 * charges) for balances, cash lines and positions; executions with their orders (brokerdesk.executions, orders) for
 * trades with commission and fees. Bulk runs: brokerdesk.statement_runs and their files (migration 0140).
 * Sums are numeric in SQL and text on the way out: no float touches an amount.
 */

export interface AccountState {
  account_number: string | null;
  swept_until: Date | null;
}

/** The account's number (directory, else the sweep's record, else its activities') and how far its activities have been read. */
export async function selectAccountState(q: Queryable, accountId: string): Promise<AccountState> {
  const { rows } = await q.query<AccountState>(
    `SELECT COALESCE(d.account_number, s.account_number,
              (SELECT a.account_number FROM brokerdesk.activities a
                WHERE a.account_id = k.account_id AND a.account_number IS NOT NULL LIMIT 1)) AS account_number, s.swept_until
       FROM (SELECT $1::text AS account_id) k
       LEFT JOIN brokerdesk.account_directory d ON d.account_id = k.account_id
       LEFT JOIN brokerdesk.activity_sweeps s ON s.account_id = k.account_id`,
    [accountId],
  );
  return rows[0] ?? { account_number: null, swept_until: null };
}

/** Per currency, the sum of the account's activities before `at`: its cash balance at that moment. */
export async function selectBalancesBefore(q: Queryable, accountId: string, at: Date): Promise<{ currency: string; amount: string }[]> {
  const { rows } = await q.query<{ currency: string; amount: string }>(
    `SELECT currency, sum(net_amount)::text AS amount FROM brokerdesk.activities
      WHERE account_id = $1 AND biz_time < $2 GROUP BY currency ORDER BY currency`,
    [accountId, at],
  );
  return rows;
}

export interface CashRow {
  biz_time: Date;
  activity_type: string;
  activity_sub_type: string | null;
  description: string | null;
  symbol: string | null;
  quantity: string | null;
  currency: string;
  net_amount: string;
}

/** The account's activities in [start, end), oldest first (one range of activities_account_time). */
export async function selectActivitiesBetween(q: Queryable, accountId: string, start: Date, end: Date): Promise<CashRow[]> {
  const { rows } = await q.query<CashRow>(
    `SELECT biz_time, activity_type, activity_sub_type, description, symbol, quantity::text AS quantity, currency,
            net_amount::text AS net_amount
       FROM brokerdesk.activities
      WHERE account_id = $1 AND biz_time >= $2 AND biz_time < $3
      ORDER BY biz_time, uid`,
    [accountId, start, end],
  );
  return rows;
}

/** Net quantity per instrument of the account's trades and position journals before `at`; zeros left out. */
export async function selectPositionsBefore(
  q: Queryable,
  accountId: string,
  at: Date,
): Promise<{ market: string | null; symbol: string; quantity: string }[]> {
  const { rows } = await q.query<{ market: string | null; symbol: string; quantity: string }>(
    `SELECT market, symbol, sum(quantity)::text AS quantity FROM brokerdesk.activities
      WHERE account_id = $1 AND biz_time < $2 AND symbol IS NOT NULL AND quantity IS NOT NULL
      GROUP BY market, symbol HAVING sum(quantity) <> 0 ORDER BY market, symbol`,
    [accountId, at],
  );
  return rows;
}

export interface ExecutionRow {
  filled_at: Date;
  order_id: string | null;
  client_order_id: string;
  market: string | null;
  instrument_type: string | null;
  symbol: string | null;
  side: string | null;
  quantity: string;
  price: string;
  commission: string | null;
  fees: unknown;
}

/** The account's executions in [start, end), oldest first, with their order's market and instrument type. */
export async function selectExecutionsBetween(q: Queryable, accountId: string, start: Date, end: Date): Promise<ExecutionRow[]> {
  const { rows } = await q.query<ExecutionRow>(
    `SELECT e.filled_at, COALESCE(e.order_id, o.order_id) AS order_id, e.client_order_id, o.market, o.instrument_type,
            COALESCE(e.symbol, o.symbol) AS symbol, COALESCE(e.side, o.side) AS side, e.quantity::text AS quantity,
            e.price::text AS price, e.commission::text AS commission, e.fees
       FROM brokerdesk.executions e
       LEFT JOIN brokerdesk.orders o ON o.account_id = e.account_id AND o.client_order_id = e.client_order_id
      WHERE e.account_id = $1 AND e.filled_at >= $2 AND e.filled_at < $3
      ORDER BY e.filled_at, e.id`,
    [accountId, start, end],
  );
  return rows;
}

/** The UTC days the account has executions on, newest first, with their count. */
export async function selectExecutionDays(q: Queryable, accountId: string, limit: number): Promise<{ day: string; n: number }[]> {
  const { rows } = await q.query<{ day: string; n: number }>(
    `SELECT to_char(filled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n
       FROM brokerdesk.executions WHERE account_id = $1
      GROUP BY 1 ORDER BY 1 DESC LIMIT $2`,
    [accountId, limit],
  );
  return rows.map((r) => ({ day: r.day, n: Number(r.n) }));
}

// ——— bulk runs ———

export interface RunRow {
  id: string;
  period_from: string;
  period_to: string;
  status: "queued" | "running" | "done" | "failed";
  requested_by: string;
  requested_at: Date;
  finished_at: Date | null;
  total: number | null;
  done: number;
  cursor: string | null;
  last_error: string | null;
  zip_bytes: number | null;
}

const RUN_COLUMNS = `id::text AS id, to_char(period_from, 'YYYY-MM-DD') AS period_from, to_char(period_to, 'YYYY-MM-DD') AS period_to,
  status, requested_by, requested_at, finished_at, total, done, cursor, last_error, zip_bytes`;

export async function insertRun(q: Queryable, from: string, to: string, by: string): Promise<RunRow> {
  const { rows } = await q.query<RunRow>(
    `INSERT INTO brokerdesk.statement_runs (period_from, period_to, status, requested_by) VALUES ($1, $2, 'queued', $3)
     RETURNING ${RUN_COLUMNS}`,
    [from, to, by],
  );
  return rows[0];
}

/** The latest runs (older than `before`, when given), newest first. */
export async function selectRuns(q: Queryable, limit: number, before?: number): Promise<RunRow[]> {
  const { rows } = await q.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM brokerdesk.statement_runs WHERE $2::bigint IS NULL OR id < $2 ORDER BY statement_runs.id DESC LIMIT $1`,
    [limit, before ?? null],
  );
  return rows;
}

export async function selectRun(q: Queryable, id: number): Promise<RunRow | undefined> {
  const { rows } = await q.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM brokerdesk.statement_runs WHERE id = $1`, [id]);
  return rows[0];
}

export async function selectOpenRunCount(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM brokerdesk.statement_runs WHERE status IN ('queued', 'running')",
  );
  return Number(rows[0].n);
}

/** The oldest run not finished, marked running (its total counted on its first start). */
export async function startOldestOpenRun(q: Queryable): Promise<RunRow | undefined> {
  const { rows } = await q.query<RunRow>(
    `UPDATE brokerdesk.statement_runs r
        SET status = 'running', started_at = COALESCE(r.started_at, now()),
            total = COALESCE(r.total, (SELECT count(*)::int FROM brokerdesk.activity_sweeps))
      WHERE r.id = (SELECT id FROM brokerdesk.statement_runs WHERE status IN ('queued', 'running') ORDER BY statement_runs.id LIMIT 1)
      RETURNING ${RUN_COLUMNS}`,
    [],
  );
  return rows[0];
}

/** The next accounts of a run after its cursor: every account whose activities the desk reads, by id. */
export async function selectRunAccounts(q: Queryable, after: string | null, limit: number): Promise<string[]> {
  const { rows } = await q.query<{ account_id: string }>(
    "SELECT account_id FROM brokerdesk.activity_sweeps WHERE $1::text IS NULL OR account_id > $1 ORDER BY account_id LIMIT $2",
    [after, limit],
  );
  return rows.map((r) => r.account_id);
}

/** One account's files and the cursor past it, in the caller's transaction. */
export async function insertRunFiles(
  q: Queryable,
  runId: string,
  files: { name: string; body: Uint8Array }[],
  cursor: string,
): Promise<void> {
  await q.query(
    `INSERT INTO brokerdesk.statement_run_files (run_id, name, body)
     SELECT $1, f.name, decode(f.body, 'base64') FROM unnest($2::text[], $3::text[]) AS f(name, body)
     ON CONFLICT (run_id, name) DO UPDATE SET body = EXCLUDED.body`,
    [runId, files.map((f) => f.name), files.map((f) => Buffer.from(f.body).toString("base64"))],
  );
  await q.query("UPDATE brokerdesk.statement_runs SET cursor = $2, done = done + 1 WHERE id = $1", [runId, cursor]);
}

export async function selectRunFiles(q: Queryable, runId: string): Promise<{ name: string; body: Uint8Array }[]> {
  const { rows } = await q.query<{ name: string; body: string }>(
    "SELECT name, encode(body, 'base64') AS body FROM brokerdesk.statement_run_files WHERE run_id = $1 ORDER BY name",
    [runId],
  );
  return rows.map((r) => ({ name: r.name, body: new Uint8Array(Buffer.from(r.body, "base64")) }));
}

/** The zip kept, the run done (its total the accounts done, should some have joined meanwhile) and its files dropped, in the caller's transaction. */
export async function finishRun(q: Queryable, runId: string, zip: Uint8Array): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.statement_runs SET status = 'done', finished_at = now(), zip = decode($2, 'base64'), zip_bytes = $3,
            total = GREATEST(total, done)
      WHERE id = $1`,
    [runId, Buffer.from(zip).toString("base64"), zip.byteLength],
  );
  await q.query("DELETE FROM brokerdesk.statement_run_files WHERE run_id = $1", [runId]);
}

export async function failRun(q: Queryable, runId: string, error: string): Promise<void> {
  await q.query("UPDATE brokerdesk.statement_runs SET status = 'failed', finished_at = now(), last_error = $2 WHERE id = $1", [
    runId,
    error.slice(0, 500),
  ]);
}

export async function selectRunZip(q: Queryable, id: number): Promise<Uint8Array | undefined> {
  const { rows } = await q.query<{ zip: string | null }>(
    "SELECT encode(zip, 'base64') AS zip FROM brokerdesk.statement_runs WHERE id = $1 AND status = 'done'",
    [id],
  );
  return rows[0]?.zip ? new Uint8Array(Buffer.from(rows[0].zip, "base64")) : undefined;
}
