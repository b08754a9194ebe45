-- The files a mail to the embedded SMTP server carried (a scheduled report's CSV or PDF), listed and downloaded on
-- Admin → Mail with the mail. Written in the statement that stores the mail; gone with it.
CREATE TABLE status_mail_inbox_attachments (
  inbox_id bigint NOT NULL REFERENCES status_mail_inbox (id) ON DELETE CASCADE,
  n integer NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  content bytea NOT NULL,
  PRIMARY KEY (inbox_id, n)
);
