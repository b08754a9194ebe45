import "server-only";
import type { InboxMessage, InboxSummary } from "@/lib/status-mail";
import type { Queryable } from "@/server/db/engine";
import type { FileBody } from "@/server/http";

/**
 * The status mail's SQL (migration 0091): subscriptions, the outbox, the subscribe form's rate windows, and what the
 * embedded SMTP server received. Incidents (status_incidents, migration 0090) are only read here. Every moment is
 * the caller's clock (`now`), so that tests can move it.
 */

export interface SubscriptionRow {
  id: string;
  email: string;
  modules: string[];
  pendingModules: string[] | null;
  confirmNonce: string | null;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
}

const SUBSCRIPTION_COLUMNS = `id, email, modules, pending_modules AS "pendingModules", confirm_nonce AS "confirmNonce",
  confirmed_at AS "confirmedAt", unsubscribed_at AS "unsubscribedAt"`;

/**
 * Counts one call in the key's fixed window (started by its first call, `windowMs` long) and answers the count in
 * the window, this call included. One row-locked statement: every app instance shares the count.
 */
export async function countCall(q: Queryable, key: string, now: Date, windowMs: number): Promise<number> {
  const { rows } = await q.query<{ calls: number }>(
    `INSERT INTO brokerdesk.status_mail_limits AS l (key, window_started_at, calls) VALUES ($1, $2, 1)
     ON CONFLICT (key) DO UPDATE SET
       window_started_at = CASE WHEN l.window_started_at <= $2::timestamptz - make_interval(secs => $3 / 1000.0)
                                THEN $2 ELSE l.window_started_at END,
       calls = CASE WHEN l.window_started_at <= $2::timestamptz - make_interval(secs => $3 / 1000.0)
                    THEN 1 ELSE l.calls + 1 END
     RETURNING calls`,
    [key, now, windowMs],
  );
  return rows[0]!.calls;
}

/**
 * Records a subscribe request: the address's row (made when new) gets the chosen modules as pending and a fresh
 * nonce, and a confirmation mail is queued, in one statement.
 */
export async function requestSubscription(q: Queryable, email: string, modules: string[], nonce: string, now: Date): Promise<void> {
  await q.query(
    `WITH s AS (
       INSERT INTO brokerdesk.status_subscriptions (email, pending_modules, confirm_nonce, created_at)
       VALUES ($1, $2::text[], $3, $4)
       ON CONFLICT (email) DO UPDATE SET pending_modules = EXCLUDED.pending_modules, confirm_nonce = EXCLUDED.confirm_nonce
       RETURNING id, email)
     INSERT INTO brokerdesk.status_mail_outbox (kind, subscription_id, recipient, created_at, next_attempt_at)
     SELECT 'confirm', s.id, s.email, $4, $4 FROM s`,
    [email, modules, nonce, now],
  );
}

/** Applies the pending choice when `nonce` is the newest confirmation's; undefined otherwise (superseded or used). */
export async function confirmSubscriptionRow(q: Queryable, id: string, nonce: string, now: Date): Promise<SubscriptionRow | undefined> {
  const { rows } = await q.query<SubscriptionRow>(
    `UPDATE brokerdesk.status_subscriptions
     SET modules = pending_modules, pending_modules = NULL, confirm_nonce = NULL, confirmed_at = $3, unsubscribed_at = NULL
     WHERE id = $1 AND confirm_nonce = $2 AND pending_modules IS NOT NULL
     RETURNING ${SUBSCRIPTION_COLUMNS}`,
    [id, nonce, now],
  );
  return rows[0];
}

/** Ends a subscription (idempotent: an ended one stays as it was); a later subscribe needs a new confirmation. */
export async function unsubscribeRow(q: Queryable, id: string, now: Date): Promise<SubscriptionRow | undefined> {
  const { rows } = await q.query<SubscriptionRow>(
    `UPDATE brokerdesk.status_subscriptions
     SET unsubscribed_at = COALESCE(unsubscribed_at, $2), confirmed_at = NULL, modules = '{}'
     WHERE id = $1
     RETURNING ${SUBSCRIPTION_COLUMNS}`,
    [id, now],
  );
  return rows[0];
}

/**
 * Queues the incident mails `select` answers (kind, incident, subscription, recipient, created, next attempt), each
 * once: none the outbox already holds for that incident, kind and subscription. Answers the number queued.
 */
async function queueOnce(q: Queryable, select: string, params: unknown[]): Promise<number> {
  const { rows } = await q.query(
    `INSERT INTO brokerdesk.status_mail_outbox (kind, incident_id, subscription_id, recipient, created_at, next_attempt_at)
     ${select}
     ON CONFLICT (incident_id, kind, subscription_id) WHERE incident_id IS NOT NULL DO NOTHING
     RETURNING id`,
    params,
  );
  return rows.length;
}

/**
 * Queues the incidents' mails due at `now`: "opened" to every active subscriber of the module for an incident open
 * at least `debounceMs` in its state (an escalation to outage starts the wait again, so the mail names the state the
 * incident settled in), or closed after lasting that long, that had not ended before the subscriber confirmed;
 * "escalated" to those whose "opened" went out before the incident became an outage, once the outage has lasted
 * `debounceMs` (or ended after lasting that long); "resolved" for a closed incident to those whose "opened" was sent.
 * The unique key makes a second pass, or a second instance, queue nothing twice. Answers the number queued.
 */
export async function queueIncidentMails(q: Queryable, now: Date, debounceMs: number): Promise<number> {
  const debounce = `make_interval(secs => $2 / 1000.0)`;
  const opened = await queueOnce(
    q,
    `SELECT 'opened', i.id, s.id, s.email, $1, $1
     FROM brokerdesk.status_incidents i
     JOIN brokerdesk.status_subscriptions s
       ON i.module = ANY (s.modules) AND s.confirmed_at IS NOT NULL AND s.unsubscribed_at IS NULL
     WHERE COALESCE(i.escalated_at, i.started_at) <= $1::timestamptz - ${debounce}
       AND (i.ended_at IS NULL OR (i.ended_at - i.started_at >= ${debounce} AND i.ended_at > s.confirmed_at))`,
    [now, debounceMs],
  );
  const escalated = await queueOnce(
    q,
    `SELECT 'escalated', o.incident_id, o.subscription_id, o.recipient, $1, $1
     FROM brokerdesk.status_mail_outbox o
     JOIN brokerdesk.status_incidents i ON i.id = o.incident_id
     WHERE o.kind = 'opened' AND o.state = 'sent' AND o.sent_at < i.escalated_at
       AND i.escalated_at <= $1::timestamptz - ${debounce}
       AND (i.ended_at IS NULL OR i.ended_at - i.escalated_at >= ${debounce})`,
    [now, debounceMs],
  );
  const resolved = await queueOnce(
    q,
    `SELECT 'resolved', o.incident_id, o.subscription_id, o.recipient, $1, $1
     FROM brokerdesk.status_mail_outbox o
     JOIN brokerdesk.status_incidents i ON i.id = o.incident_id
     WHERE o.kind = 'opened' AND o.state = 'sent' AND i.ended_at IS NOT NULL`,
    [now],
  );
  return opened + escalated + resolved;
}

/** A mail's attached file (a report's mails: mail_attachments, migration 0170). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** A claimed mail with what composing it needs. */
export interface ClaimedMail {
  id: string;
  kind: "confirm" | "opened" | "escalated" | "resolved" | "report";
  recipient: string;
  attempts: number;
  /** A status mail's subscription; null for a report's mail. */
  subscriptionId: string | null;
  /**
   * Still wanted: a confirmation while a request is pending; an incident's mail while the subscription is active and
   * still chooses the module. Else it is skipped.
   */
  active: boolean;
  confirmNonce: string | null;
  pendingModules: string[] | null;
  incident: { module: string; state: string; startedAt: Date; escalatedAt: Date | null; endedAt: Date | null } | null;
  /** A report's mail: its subject and text as queued, and its file. */
  report?: { subject: string; body: string; attachment: MailAttachment | null } | null;
}

/**
 * Claims up to `limit` due mails for this sender until `leaseUntil`: queued ones whose time has come, and ones whose
 * sender's lease ran out (its process died mid-send). SKIP LOCKED: two senders never claim the same row.
 * `reportsOnly`: the status mails are off (no public address for their links), their rows stay queued.
 */
export async function claimDueMails(q: Queryable, now: Date, leaseUntil: Date, limit: number, reportsOnly = false): Promise<ClaimedMail[]> {
  const { rows } = await q.query<Omit<ClaimedMail, "incident" | "report"> & ClaimedIncidentColumns & ClaimedReportColumns>(
    `WITH due AS (
       SELECT id FROM brokerdesk.status_mail_outbox
       WHERE ((state = 'queued' AND next_attempt_at <= $1) OR (state = 'sending' AND lease_until <= $1))
         AND (NOT $4::boolean OR kind = 'report')
       ORDER BY next_attempt_at, status_mail_outbox.id
       LIMIT $3
       FOR UPDATE SKIP LOCKED),
     claimed AS (
       UPDATE brokerdesk.status_mail_outbox o SET state = 'sending', lease_until = $2, attempts = o.attempts + 1
       FROM due WHERE o.id = due.id
       RETURNING o.id, o.kind, o.recipient, o.attempts, o.subscription_id, o.incident_id, o.subject, o.body, o.attachment_id)
     SELECT c.id::text AS id, c.kind, c.recipient, c.attempts, c.subscription_id AS "subscriptionId",
       s.confirm_nonce AS "confirmNonce", s.pending_modules AS "pendingModules",
       CASE WHEN c.kind = 'report' THEN true
            WHEN c.kind = 'confirm' THEN s.pending_modules IS NOT NULL
            ELSE s.unsubscribed_at IS NULL AND s.confirmed_at IS NOT NULL AND i.module = ANY (s.modules) END AS active,
       i.module AS "incidentModule", i.state AS "incidentState", i.started_at AS "incidentStartedAt",
       i.escalated_at AS "incidentEscalatedAt", i.ended_at AS "incidentEndedAt", c.subject AS "reportSubject", c.body AS "reportBody",
       a.filename AS "attachmentName", a.content_type AS "attachmentType", a.content AS "attachmentContent"
     FROM claimed c
     LEFT JOIN brokerdesk.status_subscriptions s ON s.id = c.subscription_id
     LEFT JOIN brokerdesk.status_incidents i ON i.id = c.incident_id
     LEFT JOIN brokerdesk.mail_attachments a ON a.id = c.attachment_id
     ORDER BY c.id`,
    [now, leaseUntil, limit, reportsOnly],
  );
  return rows.map(
    ({ incidentModule, incidentState, incidentStartedAt, incidentEscalatedAt, incidentEndedAt, reportSubject, reportBody, ...rest }) => {
      const { attachmentName, attachmentType, attachmentContent, ...m } = rest;
      return {
        ...m,
        incident: incidentModule
          ? {
              module: incidentModule,
              state: incidentState!,
              startedAt: incidentStartedAt!,
              escalatedAt: incidentEscalatedAt,
              endedAt: incidentEndedAt,
            }
          : null,
        report:
          m.kind === "report"
            ? {
                subject: reportSubject ?? "",
                body: reportBody ?? "",
                attachment: attachmentName
                  ? { filename: attachmentName, contentType: attachmentType!, content: new Uint8Array(attachmentContent!) }
                  : null,
              }
            : null,
      };
    },
  );
}

interface ClaimedReportColumns {
  reportSubject: string | null;
  reportBody: string | null;
  attachmentName: string | null;
  attachmentType: string | null;
  attachmentContent: Uint8Array | null;
}

interface ClaimedIncidentColumns {
  incidentModule: string | null;
  incidentState: string | null;
  incidentStartedAt: Date | null;
  incidentEscalatedAt: Date | null;
  incidentEndedAt: Date | null;
}

/** The claimed mail went out (or was skipped): final. Only this sender's claim is settled. */
export async function settleMail(q: Queryable, id: string, state: "sent" | "skipped", now: Date): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.status_mail_outbox SET state = $2, sent_at = CASE WHEN $2 = 'sent' THEN $3::timestamptz END,
       lease_until = NULL, last_error = NULL
     WHERE id = $1 AND state = 'sending'`,
    [id, state, now],
  );
}

/** The SMTP server refused or could not be reached: queued again for `retryAt`. */
export async function deferMail(q: Queryable, id: string, retryAt: Date, error: string): Promise<void> {
  await q.query(
    `UPDATE brokerdesk.status_mail_outbox SET state = 'queued', next_attempt_at = $2, lease_until = NULL, last_error = $3
     WHERE id = $1 AND state = 'sending'`,
    [id, retryAt, error.slice(0, 500)],
  );
}

/** A received mail and the files it carried, in one statement. */
export async function insertInboxMessage(
  q: Queryable,
  m: Omit<InboxMessage, "id" | "receivedAt" | "attachments">,
  files: MailAttachment[],
): Promise<void> {
  await q.query(
    `WITH m AS (
       INSERT INTO brokerdesk.status_mail_inbox (mail_from, rcpt_to, subject, headers, body, size)
       VALUES ($1, $2::text[], $3, $4, $5, $6) RETURNING id)
     INSERT INTO brokerdesk.status_mail_inbox_attachments (inbox_id, n, filename, content_type, content)
     SELECT m.id, f.n, f.filename, f.content_type, decode(f.content, 'base64')
       FROM m, unnest($7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS f (filename, content_type, content, n)`,
    [
      m.mailFrom,
      m.rcptTo,
      m.subject,
      m.headers,
      m.body,
      m.size,
      files.map((f) => f.filename),
      files.map((f) => f.contentType),
      files.map((f) => Buffer.from(f.content).toString("base64")),
    ],
  );
}

/** One file of a received mail, with its bytes. */
export async function selectInboxAttachment(q: Queryable, id: number, n: number): Promise<FileBody | undefined> {
  const { rows } = await q.query<FileBody>(
    `SELECT filename, content_type AS "contentType", content AS body
       FROM brokerdesk.status_mail_inbox_attachments WHERE inbox_id = $1 AND n = $2`,
    [id, n],
  );
  const row = rows[0];
  return row && { ...row, body: new Uint8Array(row.body) };
}

/** The newest received mails, newest first. */
export async function selectInbox(q: Queryable, limit: number): Promise<InboxSummary[]> {
  const { rows } = await q.query<InboxSummary>(
    `SELECT id::text AS id, received_at AS "receivedAt", mail_from AS "mailFrom", rcpt_to AS "rcptTo", subject
     FROM brokerdesk.status_mail_inbox ORDER BY received_at DESC, status_mail_inbox.id DESC LIMIT $1`,
    [limit],
  );
  return rows;
}

export async function selectInboxMessage(q: Queryable, id: string): Promise<InboxMessage | undefined> {
  const { rows } = await q.query<InboxMessage>(
    `SELECT i.id::text AS id, i.received_at AS "receivedAt", i.mail_from AS "mailFrom", i.rcpt_to AS "rcptTo", i.subject,
       i.headers, i.body, i.size,
       (SELECT coalesce(json_agg(json_build_object('n', a.n, 'filename', a.filename, 'contentType', a.content_type,
                 'size', octet_length(a.content)) ORDER BY a.n), '[]')
          FROM brokerdesk.status_mail_inbox_attachments a WHERE a.inbox_id = i.id) AS attachments
     FROM brokerdesk.status_mail_inbox i WHERE i.id = $1::bigint`,
    [id],
  );
  return rows[0];
}
