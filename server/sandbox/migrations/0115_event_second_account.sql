-- A journal concerns two accounts: its event names the from-account (account_id, the account its detail query
-- takes) and the to-account here, so a subscription filtered to either account receives it.
ALTER TABLE events ADD COLUMN other_account_id text;
