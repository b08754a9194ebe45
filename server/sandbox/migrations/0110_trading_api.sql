-- Trading API credentials: an account holder's app key and secret, issued for one virtual account.
-- The secret is kept as issued because verifying an HMAC signature needs it (the upstream keeps it too);
-- it is returned once, when issued, and never logged or listed.
CREATE TABLE trading_credentials (
  app_key     text PRIMARY KEY,
  app_secret  text NOT NULL,
  account_id  text NOT NULL REFERENCES virtual_accounts(account_id),
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX trading_credentials_account ON trading_credentials (account_id);
