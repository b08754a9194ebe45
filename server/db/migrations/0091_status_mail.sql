-- The status facility's mail (server/status-mail): subscriptions to modules with double opt-in, the durable outbox
-- read by the `status-mail` job, the subscribe form's rate-limit windows, and what the embedded SMTP server received.

-- One row an address (lower-cased). `modules` are what a confirmed subscription receives; a subscribe request puts
-- its choice in `pending_modules` and a fresh `confirm_nonce`, and only the newest confirmation link applies it.
CREATE TABLE status_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  modules text[] NOT NULL DEFAULT '{}',
  pending_modules text[],
  confirm_nonce text,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  unsubscribed_at timestamptz
);
-- The outbox's queueing statement: confirmed, active subscriptions by module.
CREATE INDEX status_subscriptions_active ON status_subscriptions USING gin (modules)
  WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL;

-- Every mail to send: a confirmation link, or an incident's "opened"/"resolved". Composed when sent (the incident's
-- state and times as they are then). A sender claims due rows (FOR UPDATE SKIP LOCKED) by setting a lease; a refused
-- send goes back to `queued` with a later `next_attempt_at` (backoff); a sent row is never claimed again.
CREATE TABLE status_mail_outbox (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('confirm', 'opened', 'resolved')),
  incident_id bigint REFERENCES status_incidents (id) ON DELETE CASCADE,
  subscription_id uuid NOT NULL REFERENCES status_subscriptions (id) ON DELETE CASCADE,
  recipient text NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'sent', 'skipped')),
  created_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  last_error text,
  sent_at timestamptz,
  CHECK ((kind = 'confirm') = (incident_id IS NULL))
);
-- A mail of an incident is queued once per event and subscriber, whatever the number of senders.
CREATE UNIQUE INDEX status_mail_outbox_once ON status_mail_outbox (incident_id, kind, subscription_id)
  WHERE incident_id IS NOT NULL;
CREATE INDEX status_mail_outbox_due ON status_mail_outbox (next_attempt_at, id) WHERE state IN ('queued', 'sending');
CREATE INDEX status_mail_outbox_confirms ON status_mail_outbox (subscription_id, created_at) WHERE kind = 'confirm';

-- The subscribe form's fixed windows (per client address and per e-mail address, keys hashed), shared by instances.
CREATE TABLE status_mail_limits (
  key text PRIMARY KEY,
  window_started_at timestamptz NOT NULL,
  calls integer NOT NULL
);

-- What the embedded SMTP server (no SMTP_URL) received; admins read it on /admin/mail.
CREATE TABLE status_mail_inbox (
  id bigserial PRIMARY KEY,
  received_at timestamptz NOT NULL DEFAULT now(),
  mail_from text NOT NULL,
  rcpt_to text[] NOT NULL,
  subject text NOT NULL,
  headers text NOT NULL,
  body text NOT NULL,
  size integer NOT NULL
);
CREATE INDEX status_mail_inbox_by_time ON status_mail_inbox (received_at DESC, id DESC);
