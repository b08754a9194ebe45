-- The approvals queue around the desk (issue 25): the accounts a request names, so an account's page can say that a
-- held request touches it (a cash journal's receiving account is not its audit target); and when its maker saw the
-- decision, so the maker is told of each approval, rejection or expiry once (server/approvals/maker-notices.ts).
ALTER TABLE approval_requests ADD COLUMN accounts text[] NOT NULL DEFAULT '{}';
ALTER TABLE approval_requests ADD COLUMN maker_seen_at timestamptz;

-- The requests held before this migration: the accounts their payloads name (every approvable operation's fields).
UPDATE approval_requests
   SET accounts = ARRAY(SELECT DISTINCT a FROM unnest(ARRAY[payload->>'account_id', payload->>'from_account', payload->>'to_account']) a
                         WHERE a IS NOT NULL AND a <> '');
-- Decisions made before makers were told of them are not news.
UPDATE approval_requests SET maker_seen_at = COALESCE(decided_at, now())
 WHERE status IN ('executed', 'failed', 'rejected', 'expired');

-- The pending requests naming an account (the account page's marker).
CREATE INDEX approval_requests_pending_accounts ON approval_requests USING gin (accounts) WHERE status = 'pending';
-- A maker's decided requests not yet seen (the header's notice): a handful of rows a person.
CREATE INDEX approval_requests_maker_unseen ON approval_requests (maker_id, decided_at DESC)
  WHERE maker_seen_at IS NULL AND status IN ('executed', 'failed', 'rejected', 'expired');
