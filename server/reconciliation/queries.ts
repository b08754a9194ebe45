import { runsPage, type RunsPage, type RunsQuery } from "@/lib/schemas/runs";
import "server-only";
import type { Queryable } from "@/server/db/engine";
import { sqlConditions } from "@/server/db/conditions";
import { keysetPage, pageLimit } from "@/server/db/keyset";
import { ROLE_OF_STAFF } from "@/server/auth/queries";
import type { BreakComment, BreakFilter, BreakKind, BreakRow, ReconciliationRun, RunSummary } from "@/lib/schemas/reconciliation";

/**
 * The reconciliation's SQL: runs and breaks (migration 0160), and the desk's side of a comparison, read from its books:
 * the copy of the account's activities (brokerdesk.activities: every cash change with its signed net amount, trades and
 * position journals with their signed quantity) and the money movements the desk knows.
 */

const iso = (v: Date | string) => new Date(v).toISOString();
const json = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T;

// ——— the desk's side ———

/** Per currency, the sum of the account's activities up to `at` (inclusive): its cash balance then, by the books. */
export async function deskCash(q: Queryable, accountId: string, at: Date): Promise<Map<string, string>> {
  const { rows } = await q.query<{ currency: string; amount: string }>(
    `SELECT currency, sum(net_amount)::text AS amount FROM brokerdesk.activities
      WHERE account_id = $1 AND biz_time <= $2 AND currency <> '' GROUP BY currency`,
    [accountId, at],
  );
  return new Map(rows.map((r) => [r.currency, r.amount]));
}

/**
 * Per market and symbol, the net quantity of the account's trades, journals and transfers up to `at`, and whether
 * some activity moved positions in a way the books cannot follow (a multi-leg trade has no quantity, an exercise
 * names the option but moves its stock): then the account's positions are not compared.
 */
export async function deskPositions(
  q: Queryable,
  accountId: string,
  at: Date,
): Promise<{ quantities: Map<string, string>; untraceable: boolean }> {
  const { rows } = await q.query<{ market: string | null; symbol: string | null; quantity: string | null; untraceable: boolean }>(
    `SELECT market, symbol, sum(quantity)::text AS quantity,
            bool_or(activity_type = 'OPTION_EA' OR (activity_type = 'TRADE' AND quantity IS NULL AND symbol IS NOT NULL)) AS untraceable
       FROM brokerdesk.activities
      WHERE account_id = $1 AND biz_time <= $2
        AND (activity_type = 'OPTION_EA' OR (activity_type = 'TRADE' AND quantity IS NULL AND symbol IS NOT NULL)
             OR (quantity IS NOT NULL AND symbol IS NOT NULL
                 AND activity_type IN ('TRADE', 'JOURNAL', 'TRANSFER')))
      GROUP BY market, symbol`,
    [accountId, at],
  );
  return {
    quantities: new Map(
      rows.filter((r) => r.symbol && r.quantity !== null && !r.untraceable).map((r) => [`${r.market ?? "US"}:${r.symbol}`, r.quantity!]),
    ),
    untraceable: rows.some((r) => r.untraceable),
  };
}

/** How far the account's activities have been copied (null: never). */
export async function sweptUntil(q: Queryable, accountId: string): Promise<Date | null> {
  const { rows } = await q.query<{ swept_until: Date | null }>("SELECT swept_until FROM brokerdesk.activity_sweeps WHERE account_id = $1", [
    accountId,
  ]);
  return rows[0]?.swept_until ? new Date(rows[0].swept_until) : null;
}

export interface LateMovement {
  kind: string;
  client_request_id: string;
  account_id: string | null;
  status: string;
  amount: string | null;
  currency: string | null;
  symbol: string | null;
  quantity: string | null;
  created_at: Date;
}

/** Movements sent upstream and still not final this long after they were made (per kind, in seconds). */
export async function lateMovements(
  q: Queryable,
  expectedSeconds: Record<string, number>,
  final: readonly string[],
): Promise<LateMovement[]> {
  const kinds = Object.keys(expectedSeconds);
  const { rows } = await q.query<LateMovement>(
    `SELECT m.kind, m.client_request_id, COALESCE(m.account_id, m.to_account, m.from_account) AS account_id, m.status,
            m.amount::text AS amount, m.currency, m.symbol, m.quantity::text AS quantity, m.created_at
       FROM brokerdesk.money_movements m JOIN unnest($1::text[], $2::int[]) AS e(kind, seconds) ON e.kind = m.kind
      WHERE m.status <> ALL($3::text[]) AND m.created_at < now() - make_interval(secs => e.seconds)
      ORDER BY m.created_at LIMIT 500`,
    [kinds, kinds.map((k) => expectedSeconds[k]), [...final]],
  );
  return rows;
}

export async function accountNumbers(q: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const { rows } = await q.query<{ account_id: string; account_number: string }>(
    "SELECT account_id, account_number FROM brokerdesk.account_directory WHERE account_id = ANY($1::text[]) AND account_number IS NOT NULL",
    [ids],
  );
  return new Map(rows.map((r) => [r.account_id, r.account_number]));
}

// ——— runs ———

interface DbRun {
  id: string;
  trigger: "schedule" | "request";
  status: ReconciliationRun["status"];
  requested_by: string | null;
  requested_at: Date;
  finished_at: Date | null;
  total: number | null;
  done: number;
  summary: unknown;
  last_error: string | null;
}

const RUN_COLUMNS = "id::text AS id, trigger, status, requested_by, requested_at, finished_at, total, done, summary, last_error";

const toRun = (r: DbRun): ReconciliationRun => ({
  id: Number(r.id),
  trigger: r.trigger,
  status: r.status,
  requestedBy: r.requested_by,
  requestedAt: iso(r.requested_at),
  finishedAt: r.finished_at ? iso(r.finished_at) : null,
  total: r.total === null ? null : Number(r.total),
  done: Number(r.done),
  summary: r.summary ? json<RunSummary>(r.summary) : null,
  lastError: r.last_error,
});

/** A queued run, unless one is queued already (a request or a schedule while one waits adds nothing). */
export async function queueRun(q: Queryable, trigger: "schedule" | "request", by: string | null): Promise<ReconciliationRun> {
  const { rows } = await q.query<DbRun>(
    `WITH waiting AS (SELECT ${RUN_COLUMNS} FROM brokerdesk.reconciliation_runs WHERE status = 'queued' ORDER BY reconciliation_runs.id LIMIT 1),
          added AS (INSERT INTO brokerdesk.reconciliation_runs (trigger, status, requested_by)
                    SELECT $1, 'queued', $2 WHERE NOT EXISTS (SELECT 1 FROM waiting) RETURNING ${RUN_COLUMNS})
     SELECT * FROM added UNION ALL SELECT * FROM waiting`,
    [trigger, by],
  );
  return toRun(rows[0]);
}

/** Takes the oldest open run (a running one first: its process died or its slice ended) and starts it afresh. */
export async function startOpenRun(q: Queryable): Promise<ReconciliationRun | undefined> {
  const { rows } = await q.query<DbRun>(
    `UPDATE brokerdesk.reconciliation_runs SET status = 'running', started_at = now(), done = 0, total = NULL, last_error = NULL
      WHERE id = (SELECT id FROM brokerdesk.reconciliation_runs WHERE status IN ('queued', 'running')
                   ORDER BY status = 'running' DESC, reconciliation_runs.id LIMIT 1)
      RETURNING ${RUN_COLUMNS}`,
  );
  return rows[0] ? toRun(rows[0]) : undefined;
}

export async function hasOpenRun(q: Queryable): Promise<boolean> {
  const { rows } = await q.query("SELECT 1 FROM brokerdesk.reconciliation_runs WHERE status IN ('queued', 'running') LIMIT 1");
  return rows.length > 0;
}

/** A run open now, or one that finished at or after `since` (one open then, or run since): it answers a send of then. */
export async function hasRunSince(q: Queryable, since: string): Promise<boolean> {
  const { rows } = await q.query(
    "SELECT 1 FROM brokerdesk.reconciliation_runs WHERE status IN ('queued', 'running') OR finished_at >= $1 LIMIT 1",
    [since],
  );
  return rows.length > 0;
}

export async function saveProgress(q: Queryable, id: number, done: number, total: number): Promise<void> {
  await q.query("UPDATE brokerdesk.reconciliation_runs SET done = $2, total = $3 WHERE id = $1", [id, done, total]);
}

export async function finishRun(q: Queryable, id: number, summary: RunSummary): Promise<void> {
  await q.query("UPDATE brokerdesk.reconciliation_runs SET status = 'done', finished_at = now(), summary = $2 WHERE id = $1", [
    id,
    JSON.stringify(summary),
  ]);
}

export async function failRun(q: Queryable, id: number, error: string): Promise<void> {
  await q.query("UPDATE brokerdesk.reconciliation_runs SET status = 'failed', finished_at = now(), last_error = $2 WHERE id = $1", [
    id,
    error.slice(0, 2000),
  ]);
}

/** A page of the runs, newest first: the latest, or those older than `before`. */
export async function listRuns(q: Queryable, { before, limit = 10 }: RunsQuery = {}): Promise<RunsPage<ReconciliationRun>> {
  const { rows } = await q.query<DbRun>(
    `SELECT ${RUN_COLUMNS} FROM brokerdesk.reconciliation_runs WHERE $2::bigint IS NULL OR id < $2 ORDER BY reconciliation_runs.id DESC LIMIT $1`,
    [limit + 1, before ?? null],
  );
  return runsPage(rows.map(toRun), limit);
}

/** The last run that finished in [start, end) with its summary (the reconciliation breaks report mails it). */
export async function lastRunFinishedBetween(q: Queryable, start: Date, end: Date): Promise<ReconciliationRun | undefined> {
  const { rows } = await q.query<DbRun>(
    `SELECT ${RUN_COLUMNS} FROM brokerdesk.reconciliation_runs
      WHERE status = 'done' AND summary IS NOT NULL AND finished_at >= $1 AND finished_at < $2 ORDER BY finished_at DESC, reconciliation_runs.id DESC LIMIT 1`,
    [start, end],
  );
  return rows[0] ? toRun(rows[0]) : undefined;
}

export async function getRun(q: Queryable, id: number): Promise<ReconciliationRun | undefined> {
  const { rows } = await q.query<DbRun>(`SELECT ${RUN_COLUMNS} FROM brokerdesk.reconciliation_runs WHERE id = $1`, [id]);
  return rows[0] ? toRun(rows[0]) : undefined;
}

// ——— breaks ———

export interface FoundBreak {
  kind: BreakKind;
  subject: string;
  accountId: string | null;
  accountNumber: string | null;
  currency?: string | null;
  symbol?: string | null;
  deskValue?: string | null;
  upstreamValue?: string | null;
  difference?: string | null;
  summary: string;
  evidence: Record<string, unknown>;
}

/**
 * Records what a run found: an open break of the same kind and subject takes the run's figures (one break however
 * many runs see it), anything else opens a new one. Answers how many were opened.
 */
export async function recordBreaks(q: Queryable, runId: number, found: FoundBreak[]): Promise<number> {
  if (!found.length) return 0;
  const { rows } = await q.query<{ opened: boolean }>(
    `INSERT INTO brokerdesk.reconciliation_breaks AS b
       (kind, subject, account_id, account_number, currency, symbol, desk_value, upstream_value, difference, summary, evidence,
        first_run_id, last_run_id)
     SELECT f.kind, f.subject, f.account_id, f.account_number, f.currency, f.symbol, f.desk_value::numeric, f.upstream_value::numeric,
            f.difference::numeric, f.summary, f.evidence, $2, $2
       FROM jsonb_to_recordset($1::jsonb) AS f(kind text, subject text, account_id text, account_number text, currency text,
            symbol text, desk_value text, upstream_value text, difference text, summary text, evidence jsonb)
     ON CONFLICT (kind, subject) WHERE status = 'open' DO UPDATE SET
       desk_value = excluded.desk_value, upstream_value = excluded.upstream_value, difference = excluded.difference,
       summary = excluded.summary, evidence = excluded.evidence, account_number = COALESCE(excluded.account_number, b.account_number),
       last_run_id = excluded.last_run_id
     RETURNING (xmax = 0) AS opened`,
    [
      JSON.stringify(
        found.map((f) => ({
          kind: f.kind,
          subject: f.subject,
          account_id: f.accountId,
          account_number: f.accountNumber,
          currency: f.currency ?? null,
          symbol: f.symbol ?? null,
          desk_value: f.deskValue ?? null,
          upstream_value: f.upstreamValue ?? null,
          difference: f.difference ?? null,
          summary: f.summary,
          evidence: f.evidence,
        })),
      ),
      runId,
    ],
  );
  return rows.filter((r) => r.opened).length;
}

export async function countOpenBreaks(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: string }>("SELECT count(*)::text AS n FROM brokerdesk.reconciliation_breaks WHERE status = 'open'");
  return Number(rows[0].n);
}

interface DbBreak {
  id: string;
  kind: BreakKind;
  account_id: string | null;
  account_number: string | null;
  currency: string | null;
  symbol: string | null;
  desk_value: string | null;
  upstream_value: string | null;
  difference: string | null;
  summary: string;
  evidence: unknown;
  status: BreakRow["status"];
  first_run_id: string;
  last_run_id: string;
  opened_at: Date;
  assigned_to: string | null;
  closed_by: string | null;
  closed_at: Date | null;
  resolution: string | null;
}

const BREAK_COLUMNS = `b.id::text AS id, b.kind, b.account_id,
  COALESCE((SELECT d.account_number FROM brokerdesk.account_directory d WHERE d.account_id = b.account_id), b.account_number) AS account_number,
  b.currency, b.symbol, b.desk_value::text AS desk_value, b.upstream_value::text AS upstream_value, b.difference::text AS difference,
  b.summary, b.evidence, b.status, b.first_run_id::text AS first_run_id, b.last_run_id::text AS last_run_id, b.opened_at,
  b.assigned_to, b.closed_by, b.closed_at, b.resolution`;

const toBreak = (r: DbBreak): BreakRow => ({
  id: r.id,
  kind: r.kind,
  accountId: r.account_id,
  accountNumber: r.account_number,
  currency: r.currency,
  symbol: r.symbol,
  deskValue: r.desk_value,
  upstreamValue: r.upstream_value,
  difference: r.difference,
  summary: r.summary,
  evidence: json<Record<string, unknown>>(r.evidence) ?? {},
  status: r.status,
  firstRunId: Number(r.first_run_id),
  lastRunId: Number(r.last_run_id),
  openedAt: iso(r.opened_at),
  assignedTo: r.assigned_to,
  closedBy: r.closed_by,
  closedAt: r.closed_at ? iso(r.closed_at) : null,
  resolution: r.resolution,
});

/** One page of breaks, newest first, filtered by status, kind and assignee ("none": nobody's). */
export async function listBreaks(
  q: Queryable,
  query: BreakFilter & { cursor?: string; limit?: number } = {},
): Promise<{ rows: BreakRow[]; nextCursor?: string }> {
  const { where, params, add } = sqlConditions();
  if (query.status) add((p) => `b.status = ${p}`, query.status);
  if (query.kind) add((p) => `b.kind = ${p}`, query.kind);
  if (query.assignee === "none") where.push("b.assigned_to IS NULL");
  else if (query.assignee) add((p) => `b.assigned_to = ${p}`, query.assignee.toLowerCase());
  const { rows, nextCursor } = await keysetPage<DbBreak>(q, {
    columns: BREAK_COLUMNS,
    from: "brokerdesk.reconciliation_breaks b",
    where,
    params,
    sort: "b.id",
    tiebreak: "b.id",
    desc: true,
    cursor: query.cursor,
    limit: pageLimit(query.limit),
  });
  return { rows: rows.map(toBreak), nextCursor };
}

export async function selectBreak(q: Queryable, id: string): Promise<BreakRow | undefined> {
  const { rows } = await q.query<DbBreak>(`SELECT ${BREAK_COLUMNS} FROM brokerdesk.reconciliation_breaks b WHERE b.id = $1::bigint`, [id]);
  return rows[0] ? toBreak(rows[0]) : undefined;
}

export async function selectComments(q: Queryable, breakId: string): Promise<BreakComment[]> {
  const { rows } = await q.query<{ id: string; author: string; body: string; created_at: Date }>(
    "SELECT id::text AS id, author, body, created_at FROM brokerdesk.reconciliation_break_comments WHERE break_id = $1::bigint ORDER BY reconciliation_break_comments.id",
    [breakId],
  );
  return rows.map((r) => ({ id: r.id, author: r.author, body: r.body, at: iso(r.created_at) }));
}

/** Assigns an open break (null: nobody); false when it is closed or unknown. */
export async function assignBreak(q: Queryable, id: string, assignee: string | null): Promise<boolean> {
  const { rows } = await q.query(
    "UPDATE brokerdesk.reconciliation_breaks SET assigned_to = $2 WHERE id = $1::bigint AND status = 'open' RETURNING id",
    [id, assignee],
  );
  return rows.length === 1;
}

export async function insertComment(q: Queryable, breakId: string, author: string, body: string): Promise<BreakComment> {
  const { rows } = await q.query<{ id: string; created_at: Date }>(
    "INSERT INTO brokerdesk.reconciliation_break_comments (break_id, author, body) VALUES ($1::bigint, $2, $3) RETURNING id::text AS id, created_at",
    [breakId, author, body],
  );
  return { id: rows[0].id, author, body, at: iso(rows[0].created_at) };
}

/** Closes an open break with how it was resolved; false when it was closed meanwhile (or is unknown). */
export async function closeBreak(q: Queryable, id: string, by: string, resolution: string): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE brokerdesk.reconciliation_breaks SET status = 'closed', closed_by = $2, closed_at = now(), resolution = $3
      WHERE id = $1::bigint AND status = 'open' RETURNING id`,
    [id, by, resolution],
  );
  return rows.length === 1;
}

/** Active staff with their role's columns (who may be assigned a break is decided by their permissions). */
export async function selectActiveStaff(
  q: Queryable,
): Promise<{ id: string; email: string; name: string; role: string; roleLabel: string | null; rolePermissions: string[] | null }[]> {
  const { rows } = await q.query<{
    id: string;
    email: string;
    name: string;
    role: string;
    roleLabel: string | null;
    rolePermissions: string[] | null;
  }>(`SELECT id, email, name, role, ${ROLE_OF_STAFF("staff_users")} FROM brokerdesk.staff_users WHERE NOT disabled ORDER BY name, email`);
  return rows;
}
