-- When an incident that opened as degraded became an outage (incidents only get worse, so once at most). The status
-- mail's debounce counts from here too, so that a first mail names the state the incident settled in, not the
-- degraded seconds an outage's first failures read as; a subscriber told of a degraded module is told of its outage
-- in an 'escalated' mail.
ALTER TABLE status_incidents ADD COLUMN escalated_at timestamptz;
ALTER TABLE status_mail_outbox DROP CONSTRAINT status_mail_outbox_kind_check;
ALTER TABLE status_mail_outbox DROP CONSTRAINT status_mail_outbox_incident_check;
ALTER TABLE status_mail_outbox
  ADD CONSTRAINT status_mail_outbox_kind_check CHECK (kind IN ('confirm', 'opened', 'escalated', 'resolved', 'report')),
  ADD CONSTRAINT status_mail_outbox_incident_check CHECK ((kind IN ('opened', 'escalated', 'resolved')) = (incident_id IS NOT NULL));
