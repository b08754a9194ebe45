-- The channel an audited act came through when it was not the desk's pages: 'mcp', 'skills' or 'cli', with the staff
-- access token that made the call. NULL for the pages. Part of an entry's hash only when set, so older entries verify.
ALTER TABLE audit_entries ADD COLUMN channel text CHECK (channel IN ('mcp', 'skills', 'cli'));
ALTER TABLE audit_entries ADD COLUMN token_id text;
