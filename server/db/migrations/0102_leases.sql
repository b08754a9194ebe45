-- Leadership by lease (server/events/leader.ts): one holder a name, until `expires_at`, which the holder moves on while
-- it runs. A holder that stops renewing (dead, frozen, cut off) loses it when it expires; whoever takes it over adds
-- one to `term`, the fencing token that a holder's writes check, so a returning old holder's are refused.
CREATE TABLE leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  term bigint NOT NULL,
  acquired_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
