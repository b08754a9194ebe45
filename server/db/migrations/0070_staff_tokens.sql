-- Staff access tokens (server/tokens): what a staff member's assistants and automations present as
-- `Authorization: Bearer bdk_…` to the desk's API. Only the SHA-256 of the secret is kept (hex, unique: the lookup
-- key); `prefix` is the secret's first characters, shown so that a person can tell their tokens apart. A token acts
-- with its owner's role as read at each call, never more than its scopes allow, and ends at `expires_at` (1 to 365
-- days after its creation: a token never lives for ever) or when revoked. Timestamps are the app's clock, in
-- milliseconds (the listing's keyset cursor keeps milliseconds).
CREATE TABLE staff_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  staff_id uuid NOT NULL REFERENCES staff_users (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  token_hash text NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  prefix text NOT NULL,
  scopes text[] NOT NULL CHECK (scopes <@ ARRAY['read', 'write']::text[] AND 'read' = ANY (scopes)),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > created_at AND expires_at <= created_at + interval '365 days'),
  last_used_at timestamptz,
  last_used_ip text,
  revoked_at timestamptz,
  revoked_by uuid REFERENCES staff_users (id),
  -- The per-token rate limit, shared by every app instance: a fixed one-minute window that starts at its first
  -- call, counted in the same statement that records the use (server/tokens/queries.ts `recordTokenCall`).
  window_started_at timestamptz,
  window_calls integer NOT NULL DEFAULT 0
);
-- The Access tokens page: one's own tokens, and (administrators) everyone's, newest first.
CREATE INDEX staff_tokens_by_staff ON staff_tokens (staff_id, created_at DESC, id DESC);
CREATE INDEX staff_tokens_by_created ON staff_tokens (created_at DESC, id DESC);
