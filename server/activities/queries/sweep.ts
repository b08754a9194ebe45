import "server-only";
import type { Queryable } from "@/server/db/engine";
import type { ActivityDbRow } from "./explorer";

/**
 * The sweep's SQL: one account's state (brokerdesk.activity_sweeps: swept_until, the open window and its cursor),
 * the copy's rows (brokerdesk.activities), the round's row (brokerdesk.sync_runs, job 'activities') and the
 * "sweep now" request (brokerdesk.event_stream). Every write of an account's state is compare-and-set on what the
 * pass read.
 */

export interface SweepState {
  swept_until: Date | null;
  window_end: Date | null;
  cursor: string | null;
}

/** The account's state, its row made on first sight and its last run stamped. */
export async function startAccountPass(q: Queryable, accountId: string, accountNumber: string | null): Promise<SweepState> {
  const { rows } = await q.query<SweepState>(
    `INSERT INTO brokerdesk.activity_sweeps AS s (account_id, account_number, last_run_at) VALUES ($1, $2, now())
     ON CONFLICT (account_id) DO UPDATE SET account_number = COALESCE(EXCLUDED.account_number, s.account_number), last_run_at = now(), updated_at = now()
     RETURNING swept_until, window_end, cursor`,
    [accountId, accountNumber],
  );
  return rows[0];
}

export async function clearAccountError(q: Queryable, accountId: string): Promise<void> {
  await q.query("UPDATE brokerdesk.activity_sweeps SET last_error = NULL WHERE account_id = $1", [accountId]);
}

/** Opens a window ending at `windowEnd` when none is open and swept_until is still `sweptUntil`; false: superseded. */
export async function openWindow(q: Queryable, accountId: string, windowEnd: Date, sweptUntil: Date | null): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.activity_sweeps SET window_end = $2, cursor = NULL, updated_at = now()
      WHERE account_id = $1 AND window_end IS NULL AND swept_until IS NOT DISTINCT FROM $3 RETURNING 1`,
    [accountId, windowEnd, sweptUntil],
  );
  return rows.length > 0;
}

/**
 * Moves the pass on after a page read from (`windowEnd`, `cursor`): to `nextCursor`, or (undefined: the last page)
 * closes the window, swept_until = its end. False when the state is no longer the one read (superseded).
 */
export async function advanceWindow(
  q: Queryable,
  p: { accountId: string; fetched: number; windowEnd: Date; cursor: string | null; nextCursor?: string },
): Promise<boolean> {
  const last = p.nextCursor === undefined;
  const { rows } = await q.query(
    `UPDATE brokerdesk.activity_sweeps
        SET ${last ? "swept_until = window_end, window_end = NULL, cursor = NULL, last_error = NULL" : "cursor = $5"},
            fetched = fetched + $2, updated_at = now()
      WHERE account_id = $1 AND window_end = $3 AND cursor IS NOT DISTINCT FROM $4 RETURNING 1`,
    [p.accountId, p.fetched, p.windowEnd, p.cursor, ...(last ? [] : [p.nextCursor])],
  );
  return rows.length > 0;
}

export async function recordAccountError(q: Queryable, accountId: string, error: string, dropCursor: boolean): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.activity_sweeps SET last_error = $2, cursor = CASE WHEN $3::boolean THEN NULL ELSE cursor END, updated_at = now() WHERE account_id = $1`,
    [accountId, error, dropCursor],
  );
}

/** Forgets an account never swept (the master account the upstream does not list); false when it had been swept. */
export async function dropUnsweptAccount(q: Queryable, accountId: string): Promise<boolean> {
  const { rows } = await q.query("DELETE FROM brokerdesk.activity_sweeps WHERE account_id = $1 AND swept_until IS NULL RETURNING 1", [
    accountId,
  ]);
  return rows.length > 0;
}

/** Reads the account's history again from the start at its next pass. */
export async function resetAccountState(q: Queryable, accountId: string): Promise<void> {
  await q.query(
    "UPDATE brokerdesk.activity_sweeps SET swept_until = NULL, window_end = NULL, cursor = NULL, last_error = NULL, updated_at = now() WHERE account_id = $1",
    [accountId],
  );
}

/** One activity as stored (text fields; the statement casts). */
export type StoredActivity = Omit<ActivityDbRow, "uid" | "account_id" | "biz_time"> & { biz_time: string };

const COLUMNS = [
  "account_number",
  "activity_type",
  "activity_sub_type",
  "currency",
  "market",
  "symbol",
  "quantity",
  "net_amount",
  "trade_date",
  "biz_time",
  "description",
];

/** Upserts one page of an account's activities; returns how many rows were new or changed. */
export async function upsertActivities(
  q: Queryable,
  accountId: string,
  accountNumber: string | null,
  rows: StoredActivity[],
): Promise<number> {
  if (!rows.length) return 0;
  const result = await q.query(
    `INSERT INTO brokerdesk.activities AS a (account_id, id, ${COLUMNS.join(", ")})
     SELECT $1, r.id, COALESCE(r.account_number, $2), r.activity_type, r.activity_sub_type, r.currency, r.market, r.symbol, r.quantity::numeric,
            r.net_amount::numeric, r.trade_date::date, r.biz_time::timestamptz, r.description
       FROM jsonb_to_recordset($3::jsonb) AS r(id text, account_number text, activity_type text, activity_sub_type text, currency text, market text,
            symbol text, quantity text, net_amount text, trade_date text, biz_time text, description text)
     ON CONFLICT (account_id, id) DO UPDATE SET ${COLUMNS.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}, swept_at = now()
      WHERE (${COLUMNS.map((c) => `a.${c}`).join(", ")}) IS DISTINCT FROM (${COLUMNS.map((c) => `EXCLUDED.${c}`).join(", ")})
     RETURNING 1`,
    [accountId, accountNumber, JSON.stringify(rows)],
  );
  return result.rows.length;
}

export interface RunRow {
  id: string;
  cursor: string | null;
  done: number;
  total: number | null;
  checked: number;
  fixed: number;
  errors: number;
  started_at: Date;
  last_error: string | null;
}

const RUN_COLUMNS = "id::text, cursor, done, total, checked, fixed, errors, started_at, last_error";

/** The round left running (to resume), if any. */
export async function selectRunningRound(q: Queryable): Promise<RunRow | undefined> {
  const { rows } = await q.query<RunRow>(
    `SELECT ${RUN_COLUMNS} FROM brokerdesk.sync_runs WHERE job = 'activities' AND status = 'running' ORDER BY sync_runs.id DESC LIMIT 1`,
  );
  return rows[0];
}

/** A new round; its total is the accounts known so far (null on the first round). */
export async function insertRound(q: Queryable, requestedBy: string | null): Promise<RunRow> {
  const { rows } = await q.query<RunRow>(
    `INSERT INTO brokerdesk.sync_runs (job, status, requested_by, total)
     VALUES ('activities', 'running', $1, (SELECT NULLIF(count(*), 0)::int FROM brokerdesk.activity_sweeps)) RETURNING ${RUN_COLUMNS}`,
    [requestedBy],
  );
  return rows[0];
}

/** Accounts passed since `since`: read to the end (ok) or left with an error (failed). */
export async function countAccountsSince(q: Queryable, since: Date): Promise<{ ok: number; failed: number }> {
  const { rows } = await q.query<{ ok: number; failed: number }>(
    `SELECT count(*) FILTER (WHERE last_error IS NULL AND window_end IS NULL)::int AS ok, count(*) FILTER (WHERE last_error IS NOT NULL)::int AS failed
       FROM brokerdesk.activity_sweeps WHERE last_run_at >= $1`,
    [since],
  );
  return { ok: Number(rows[0].ok), failed: Number(rows[0].failed) };
}

/** Of `accountIds`, those passed since `since`: done, or failed. */
export async function selectVisitedSince(
  q: Queryable,
  accountIds: string[],
  since: Date,
): Promise<{ account_id: string; failed: boolean }[]> {
  const { rows } = await q.query<{ account_id: string; failed: boolean }>(
    `SELECT account_id, last_error IS NOT NULL AS failed FROM brokerdesk.activity_sweeps
      WHERE account_id = ANY($1) AND last_run_at >= $2 AND (last_error IS NOT NULL OR window_end IS NULL)`,
    [accountIds, since],
  );
  return rows;
}

export async function saveRound(q: Queryable, run: RunRow, status?: "done"): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.sync_runs SET cursor = $2, done = $3, total = $4, checked = $5, fixed = $6, errors = $7, last_error = $8,
            status = COALESCE($9, status), finished_at = CASE WHEN $9::text IS NULL THEN finished_at ELSE now() END
      WHERE id = $1`,
    [run.id, run.cursor, run.done, run.total, run.checked, run.fixed, run.errors, run.last_error, status ?? null],
  );
}

/** Sets the "sweep now" request on the event stream's row; returns its time. */
export async function setSweepRequest(q: Queryable, by: string): Promise<Date> {
  const { rows } = await q.query<{ at: Date }>(
    "UPDATE brokerdesk.event_stream SET activities_sweep_requested_at = now(), activities_sweep_requested_by = $1 WHERE id = 'upstream' RETURNING activities_sweep_requested_at AS at",
    [by],
  );
  return rows[0].at;
}

export interface FreshnessRows {
  sweeps: { accounts: number; swept: number; as_of: Date | null };
  failed?: { account_id: string; account_number: string | null; last_error: string };
  run?: { status: string; done: number; total: number | null; checked: number; started_at: Date; last_error: string | null };
  request?: { at: Date | null };
}

/** What the "as of" line is made of, for all accounts or one: four indexed reads. */
export async function selectFreshness(q: Queryable, accountId?: string): Promise<FreshnessRows> {
  const scope = accountId ? "WHERE account_id = $1" : "";
  const params = accountId ? [accountId] : [];
  const {
    rows: [sweeps],
  } = await q.query<FreshnessRows["sweeps"]>(
    `SELECT count(*)::int AS accounts, count(swept_until)::int AS swept, min(swept_until) AS as_of FROM brokerdesk.activity_sweeps ${scope}`,
    params,
  );
  const {
    rows: [failed],
  } = await q.query<NonNullable<FreshnessRows["failed"]>>(
    `SELECT account_id, account_number, last_error FROM brokerdesk.activity_sweeps ${scope ? `${scope} AND` : "WHERE"} last_error IS NOT NULL
      ORDER BY last_run_at DESC NULLS LAST LIMIT 1`,
    params,
  );
  const {
    rows: [run],
  } = await q.query<NonNullable<FreshnessRows["run"]>>(
    "SELECT status, done, total, checked, started_at, last_error FROM brokerdesk.sync_runs WHERE job = 'activities' ORDER BY sync_runs.id DESC LIMIT 1",
  );
  const {
    rows: [request],
  } = await q.query<{ at: Date | null }>(
    `SELECT activities_sweep_requested_at AS at FROM brokerdesk.event_stream
      WHERE id = 'upstream' AND activities_sweep_requested_at > COALESCE((SELECT max(started_at) FROM brokerdesk.sync_runs WHERE job = 'activities'), '-infinity')`,
  );
  return { sweeps, failed, run, request };
}
