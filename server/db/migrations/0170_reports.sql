-- Scheduled reports (server/reports): an administrator's schedule of one report over the books, mailed as CSV or PDF
-- to chosen staff through the status mail's outbox (0091), and the runs the `reports` job made of it.

-- A schedule: what (kind, format), to whom, and when: every day or on weekdays (Monday to Friday) at a UTC time.
-- A run covers the UTC day before its slot. `active_from` is when it was made, last edited or enabled: only a slot
-- from then on is run, so a change applies from the next time, never to a slot already past.
CREATE TABLE report_schedules (
  id bigserial PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  kind text NOT NULL CHECK (kind IN ('reconciliation_breaks', 'daily_movements', 'fx_volume', 'commissions_by_account', 'alerts')),
  format text NOT NULL CHECK (format IN ('csv', 'pdf')),
  recipients text[] NOT NULL CHECK (cardinality(recipients) BETWEEN 1 AND 20),
  cadence text NOT NULL CHECK (cadence IN ('daily', 'weekdays')),
  at_time text NOT NULL CHECK (at_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  enabled boolean NOT NULL DEFAULT true,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  active_from timestamptz NOT NULL DEFAULT now()
);

-- One run of a schedule for one slot (its scheduled moment, or the moment "Run now" was asked for): once a slot,
-- whatever the number of job runs or instances (the unique index). The job renders the file, queues one outbox mail a
-- recipient and marks the run done in one transaction; the history's "sent" is those mails having left.
CREATE TABLE report_runs (
  id bigserial PRIMARY KEY,
  schedule_id bigint REFERENCES report_schedules (id) ON DELETE SET NULL,
  schedule_name text NOT NULL,
  kind text NOT NULL,
  format text NOT NULL,
  slot timestamptz NOT NULL,
  report_day date NOT NULL,
  trigger text NOT NULL CHECK (trigger IN ('schedule', 'request')),
  requested_by text,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  requested_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  row_count integer,
  recipients text[] NOT NULL DEFAULT '{}',
  file_name text,
  last_error text
);
CREATE UNIQUE INDEX report_runs_once ON report_runs (schedule_id, slot);
CREATE INDEX report_runs_recent ON report_runs (id DESC);
CREATE INDEX report_runs_open ON report_runs (id) WHERE status IN ('queued', 'running');

-- A mail's attachment, stored once for all the recipients of a run.
CREATE TABLE mail_attachments (
  id bigserial PRIMARY KEY,
  filename text NOT NULL,
  content_type text NOT NULL,
  content bytea NOT NULL
);

-- The outbox also carries a report's mails: no subscription, its own subject and text, an attachment, its run.
ALTER TABLE status_mail_outbox DROP CONSTRAINT status_mail_outbox_kind_check;
ALTER TABLE status_mail_outbox DROP CONSTRAINT status_mail_outbox_check;
ALTER TABLE status_mail_outbox ALTER COLUMN subscription_id DROP NOT NULL;
ALTER TABLE status_mail_outbox
  ADD COLUMN subject text,
  ADD COLUMN body text,
  ADD COLUMN attachment_id bigint REFERENCES mail_attachments (id),
  ADD COLUMN report_run_id bigint REFERENCES report_runs (id) ON DELETE CASCADE;
ALTER TABLE status_mail_outbox
  ADD CONSTRAINT status_mail_outbox_kind_check CHECK (kind IN ('confirm', 'opened', 'resolved', 'report')),
  ADD CONSTRAINT status_mail_outbox_incident_check CHECK ((kind IN ('opened', 'resolved')) = (incident_id IS NOT NULL)),
  ADD CONSTRAINT status_mail_outbox_report_check CHECK (
    (kind = 'report') = (subscription_id IS NULL) AND (kind = 'report') = (report_run_id IS NOT NULL)
    AND (kind = 'report') = (subject IS NOT NULL AND body IS NOT NULL));
CREATE INDEX status_mail_outbox_report_run ON status_mail_outbox (report_run_id) WHERE report_run_id IS NOT NULL;
