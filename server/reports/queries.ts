import "server-only";
import type { ReportRecipientOption, ReportScheduleValues } from "@/lib/schemas/reports";
import type { MovementRow } from "@/lib/schemas/movement-list";
import type { Queryable } from "@/server/db/engine";
import type { FileBody } from "@/server/http";
import type { ExecutionRow } from "@/server/statements/queries";

/**
 * The scheduled reports' SQL (migration 0170): schedules, runs and the run's mails in the status mail's outbox
 * (0091), and the report's figures read from the books: money movements and executions (0010), alerts (0020),
 * reconciliation breaks (0160). A report's day is [day 00:00, day + 1 00:00) UTC.
 */

// ——— schedules ———

export interface ScheduleRow extends ReportScheduleValues {
  id: string;
  createdBy: string;
  activeFrom: Date;
}

const SCHEDULE_COLUMNS = `id::text AS id, name, kind, format, cadence, at_time AS "atTime", recipients, enabled,
  created_by AS "createdBy", active_from AS "activeFrom"`;

export async function selectSchedules(q: Queryable): Promise<ScheduleRow[]> {
  const { rows } = await q.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM brokerdesk.report_schedules ORDER BY name, report_schedules.id`);
  return rows;
}

export async function selectSchedule(q: Queryable, id: number): Promise<ScheduleRow | undefined> {
  const { rows } = await q.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM brokerdesk.report_schedules WHERE id = $1`, [id]);
  return rows[0];
}

export async function insertSchedule(q: Queryable, s: ReportScheduleValues, by: string, now: Date): Promise<ScheduleRow> {
  const { rows } = await q.query<ScheduleRow>(
    `INSERT INTO brokerdesk.report_schedules (name, kind, format, cadence, at_time, recipients, enabled, created_by, created_at, active_from)
     VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9, $9) RETURNING ${SCHEDULE_COLUMNS}`,
    [s.name, s.kind, s.format, s.cadence, s.atTime, s.recipients, s.enabled, by, now],
  );
  return rows[0]!;
}

/** A change applies from the next slot: `active_from` moves to now (a slot already past is not run for it). */
export async function updateSchedule(q: Queryable, id: number, s: ReportScheduleValues, now: Date): Promise<ScheduleRow | undefined> {
  const { rows } = await q.query<ScheduleRow>(
    `UPDATE brokerdesk.report_schedules
        SET name = $2, kind = $3, format = $4, cadence = $5, at_time = $6, recipients = $7::text[], enabled = $8, active_from = $9
      WHERE id = $1 RETURNING ${SCHEDULE_COLUMNS}`,
    [id, s.name, s.kind, s.format, s.cadence, s.atTime, s.recipients, s.enabled, now],
  );
  return rows[0];
}

export async function deleteScheduleRow(q: Queryable, id: number): Promise<boolean> {
  const { rows } = await q.query(`DELETE FROM brokerdesk.report_schedules WHERE id = $1 RETURNING id`, [id]);
  return rows.length > 0;
}

/** Enabled staff, by email: who a schedule may name. */
export async function selectActiveStaff(q: Queryable): Promise<ReportRecipientOption[]> {
  const { rows } = await q.query<ReportRecipientOption>(
    `SELECT email, name FROM brokerdesk.staff_users WHERE NOT disabled ORDER BY email`,
  );
  return rows;
}

/** Of `emails`, those of enabled staff, with their roles. */
export async function selectActiveStaffEmails(q: Queryable, emails: string[]): Promise<{ email: string; role: string }[]> {
  const { rows } = await q.query<{ email: string; role: string }>(
    `SELECT email, role FROM brokerdesk.staff_users WHERE NOT disabled AND email = ANY ($1::text[]) ORDER BY email`,
    [emails],
  );
  return rows;
}

// ——— runs ———

export interface RunRow {
  id: string;
  scheduleId: string | null;
  scheduleName: string;
  kind: string;
  format: string;
  slot: Date;
  reportDay: string;
  trigger: "schedule" | "request";
  requestedBy: string | null;
  status: "queued" | "running" | "done" | "failed";
  rowCount: number | null;
  recipients: string[];
  fileName: string | null;
  lastError: string | null;
  finishedAt: Date | null;
  mails: number;
  mailsSent: number;
  mailsFailing: number;
}

const RUN_COLUMNS = `r.id::text AS id, r.schedule_id::text AS "scheduleId", r.schedule_name AS "scheduleName", r.kind, r.format,
  r.slot, to_char(r.report_day, 'YYYY-MM-DD') AS "reportDay", r.trigger, r.requested_by AS "requestedBy", r.status,
  r.row_count AS "rowCount", r.recipients, r.file_name AS "fileName", r.last_error AS "lastError", r.finished_at AS "finishedAt"`;

/** Each schedule's latest slot run by the schedule (not by "Run now"), by schedule id. */
export async function selectLastScheduledSlots(q: Queryable): Promise<Map<string, Date>> {
  const { rows } = await q.query<{ id: string; slot: Date }>(
    `SELECT schedule_id::text AS id, max(slot) AS slot FROM brokerdesk.report_runs
      WHERE trigger = 'schedule' AND schedule_id IS NOT NULL GROUP BY schedule_id`,
  );
  return new Map(rows.map((r) => [r.id, new Date(r.slot)]));
}

/**
 * A schedule's run for a slot, unless it has one (the unique index: once a slot, whoever asks). Answers the run when
 * this call made it.
 */
export async function insertRunOnce(
  q: Queryable,
  s: { id: string; name: string; kind: string; format: string },
  slot: Date,
  reportDay: string,
  trigger: "schedule" | "request",
  by: string | null,
): Promise<{ id: string } | undefined> {
  const { rows } = await q.query<{ id: string }>(
    `INSERT INTO brokerdesk.report_runs (schedule_id, schedule_name, kind, format, slot, report_day, trigger, requested_by)
     VALUES ($1::bigint, $2, $3, $4, $5, $6::date, $7, $8)
     ON CONFLICT (schedule_id, slot) DO NOTHING RETURNING id::text AS id`,
    [s.id, s.name, s.kind, s.format, slot, reportDay, trigger, by],
  );
  return rows[0];
}

/** The oldest queued run (or one left running by a process that died `staleMs` ago), now running. */
export async function startOldestRun(q: Queryable, now: Date, staleMs: number): Promise<RunRow | undefined> {
  const { rows } = await q.query<RunRow>(
    `WITH next AS (
       SELECT id FROM brokerdesk.report_runs
        WHERE status = 'queued' OR (status = 'running' AND started_at < $1::timestamptz - make_interval(secs => $2 / 1000.0))
        ORDER BY report_runs.id LIMIT 1 FOR UPDATE SKIP LOCKED)
     UPDATE brokerdesk.report_runs r SET status = 'running', started_at = $1
       FROM next WHERE r.id = next.id
     RETURNING ${RUN_COLUMNS}, 0 AS mails, 0 AS "mailsSent", 0 AS "mailsFailing"`,
    [now, staleMs],
  );
  return rows[0];
}

export async function countOpenRuns(q: Queryable): Promise<number> {
  const { rows } = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM brokerdesk.report_runs WHERE status IN ('queued', 'running')`,
  );
  return Number(rows[0]!.n);
}

export interface ReportMail {
  subject: string;
  body: string;
  file: { name: string; contentType: string; content: Uint8Array };
}

/**
 * The run's file once and one outbox mail a recipient, and the run done: one statement, so the mails are queued
 * exactly when the run is marked done (only a run still running, this job's).
 */
export async function finishRunWithMails(
  q: Queryable,
  runId: string,
  rowCount: number,
  recipients: string[],
  mail: ReportMail,
  now: Date,
): Promise<void> {
  await q.query(
    `WITH run AS (
       UPDATE brokerdesk.report_runs SET status = 'done', finished_at = $7, row_count = $2, recipients = $3::text[],
              file_name = $6, last_error = NULL
        WHERE id = $1::bigint AND status = 'running' RETURNING id),
     file AS (
       INSERT INTO brokerdesk.mail_attachments (filename, content_type, content)
       SELECT $6, $8, $9::bytea FROM run RETURNING id)
     INSERT INTO brokerdesk.status_mail_outbox (kind, recipient, subject, body, attachment_id, report_run_id, created_at, next_attempt_at)
     SELECT 'report', r.email, $4, $5, file.id, run.id, $7, $7
       FROM run, file, unnest($3::text[]) AS r (email)`,
    [runId, rowCount, recipients, mail.subject, mail.body, mail.file.name, now, mail.file.contentType, mail.file.content],
  );
}

/** A finished run's file, as its mails carry it (one stored attachment for all its recipients). */
export async function selectRunFile(q: Queryable, id: number): Promise<FileBody | undefined> {
  const { rows } = await q.query<FileBody>(
    `SELECT a.filename, a.content_type AS "contentType", a.content AS body
       FROM brokerdesk.report_runs r
       JOIN LATERAL (SELECT o.attachment_id FROM brokerdesk.status_mail_outbox o
                      WHERE o.report_run_id = r.id AND o.attachment_id IS NOT NULL LIMIT 1) o ON true
       JOIN brokerdesk.mail_attachments a ON a.id = o.attachment_id
      WHERE r.id = $1 AND r.status = 'done'`,
    [id],
  );
  const row = rows[0];
  return row && { ...row, body: new Uint8Array(row.body) };
}

export async function failRunRow(q: Queryable, runId: string, error: string, now: Date): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.report_runs SET status = 'failed', finished_at = $3, last_error = $2 WHERE id = $1::bigint`,
    [runId, error.slice(0, 500), now],
  );
}

/** The latest runs (older than `before`, when given), newest first, with their mails' progress in the outbox. */
export async function selectRuns(q: Queryable, limit: number, before?: number): Promise<RunRow[]> {
  const { rows } = await q.query<RunRow>(
    `SELECT ${RUN_COLUMNS},
            count(o.id)::int AS mails,
            (count(o.id) FILTER (WHERE o.state = 'sent'))::int AS "mailsSent",
            (count(o.id) FILTER (WHERE o.state = 'queued' AND o.attempts >= 5))::int AS "mailsFailing"
       FROM (SELECT * FROM brokerdesk.report_runs WHERE $2::bigint IS NULL OR id < $2 ORDER BY report_runs.id DESC LIMIT $1) r
       LEFT JOIN brokerdesk.status_mail_outbox o ON o.report_run_id = r.id
      GROUP BY r.id, r.schedule_id, r.schedule_name, r.kind, r.format, r.slot, r.report_day, r.trigger, r.requested_by,
               r.status, r.row_count, r.recipients, r.file_name, r.last_error, r.finished_at
      ORDER BY r.id DESC`,
    [limit, before ?? null],
  );
  return rows;
}

// ——— the reports' figures ———

/** A query of the books' figures over a report's day: its SQL reads the day's start as $1 and its end as $2. */
const figuresOfDay =
  <T>(sql: string) =>
  async (q: Queryable, start: Date, end: Date): Promise<T[]> =>
    (await q.query<T>(sql, [start, end])).rows;

/** Breaks open at some moment of the day: opened before its end and not closed before its start. */
export const selectBreaksOfDay = figuresOfDay<{
  id: string;
  kind: string;
  account: string | null;
  currency: string | null;
  symbol: string | null;
  deskValue: string | null;
  upstreamValue: string | null;
  difference: string | null;
  status: string;
  openedAt: Date;
  closedAt: Date | null;
  assignedTo: string | null;
  summary: string;
}>(
  `SELECT id::text AS id, kind, COALESCE(account_number, account_id) AS account, currency, symbol,
          desk_value::text AS "deskValue", upstream_value::text AS "upstreamValue", difference::text AS difference,
          status, opened_at AS "openedAt", closed_at AS "closedAt", assigned_to AS "assignedTo", summary
     FROM brokerdesk.reconciliation_breaks
    WHERE opened_at < $2 AND (closed_at IS NULL OR closed_at >= $1)
    ORDER BY reconciliation_breaks.id`,
);

type DayMovementField = "kind" | "fromAccount" | "toAccount" | "direction" | "amount" | "currency" | "toAmount" | "toCurrency"
  | "symbol" | "quantity" | "status" | "requestedBy";

/** The money movements made during the day, oldest first, with account numbers where the directory knows them. */
export const selectMovementsOfDay = figuresOfDay<Pick<MovementRow, DayMovementField> & { createdAt: Date; account: string | null }>(
  `SELECT m.created_at AS "createdAt", m.kind, COALESCE(a.account_number, m.account_id) AS account,
          COALESCE(f.account_number, m.from_account) AS "fromAccount", COALESCE(t.account_number, m.to_account) AS "toAccount",
          m.direction, m.amount::text AS amount, m.currency, m.to_amount::text AS "toAmount", m.to_currency AS "toCurrency",
          m.symbol, m.quantity::text AS quantity, m.status, m.requested_by AS "requestedBy"
     FROM brokerdesk.money_movements m
     LEFT JOIN brokerdesk.account_directory a ON a.account_id = m.account_id
     LEFT JOIN brokerdesk.account_directory f ON f.account_id = m.from_account
     LEFT JOIN brokerdesk.account_directory t ON t.account_id = m.to_account
    WHERE m.created_at >= $1 AND m.created_at < $2
    ORDER BY m.created_at, m.id`,
);

/** The day's completed currency exchanges by pair: how many, the amounts sold and bought. */
export async function selectFxVolumeOfDay(q: Queryable, start: Date, end: Date) {
  const { rows } = await q.query<{ currency: string; toCurrency: string; n: number; amount: string; toAmount: string }>(
    `SELECT currency, to_currency AS "toCurrency", count(*)::int AS n, COALESCE(sum(amount), 0)::text AS amount,
            COALESCE(sum(to_amount), 0)::text AS "toAmount"
       FROM brokerdesk.money_movements
      WHERE kind IN ('FX_EXCHANGE', 'INSTANT_EXCHANGE') AND status = 'COMPLETED'
        AND created_at >= $1 AND created_at < $2 AND currency IS NOT NULL AND to_currency IS NOT NULL
      GROUP BY currency, to_currency ORDER BY currency, to_currency`,
    [start, end],
  );
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/** The day's executions with their account and order (market, instrument type), oldest first. */
export const selectExecutionsOfDay = figuresOfDay<ExecutionRow & { account: string }>(
  `SELECT COALESCE(a.account_number, e.account_id) AS account, e.filled_at, COALESCE(e.order_id, o.order_id) AS order_id,
          e.client_order_id, o.market, o.instrument_type, COALESCE(e.symbol, o.symbol) AS symbol,
          COALESCE(e.side, o.side) AS side, e.quantity::text AS quantity, e.price::text AS price,
          e.commission::text AS commission, e.fees
     FROM brokerdesk.executions e
     LEFT JOIN brokerdesk.orders o ON o.account_id = e.account_id AND o.client_order_id = e.client_order_id
     LEFT JOIN brokerdesk.account_directory a ON a.account_id = e.account_id
    WHERE e.filled_at >= $1 AND e.filled_at < $2
    ORDER BY e.filled_at, e.id`,
);

/** Alerts raised during the day, and alerts decided (cleared or escalated) during it. */
export const selectAlertsOfDay = figuresOfDay<{
  id: string;
  rule: string;
  account: string | null;
  summary: string;
  status: string;
  raisedAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
}>(
  `SELECT al.id::text AS id, r.name AS rule, COALESCE(d.account_number, al.account_id) AS account, al.summary, al.status,
          al.raised_at AS "raisedAt", al.decided_at AS "decidedAt", al.decided_by AS "decidedBy"
     FROM brokerdesk.alerts al
     JOIN brokerdesk.surveillance_rules r ON r.id = al.rule_id
     LEFT JOIN brokerdesk.account_directory d ON d.account_id = al.account_id
    WHERE (al.raised_at >= $1 AND al.raised_at < $2) OR (al.decided_at >= $1 AND al.decided_at < $2)
    ORDER BY al.id`,
);
