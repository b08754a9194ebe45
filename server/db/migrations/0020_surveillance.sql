-- Surveillance: rules as data (an administrator edits their parameters), the alerts they raise as movements and
-- orders reach the read model, and the option-level raises the desk made (the upstream's account events do not say
-- what changed). Alerts are decisions, not read model: a rebuild of the read model keeps them, and the unique
-- (rule, subject) key makes a re-projection or a rebuild raise nothing twice.

CREATE TABLE surveillance_rules (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('large_funding', 'withdrawal_after_deposit', 'journals_per_day', 'option_after_level_raise')),
  name text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  params jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text
);

CREATE TABLE alerts (
  id bigserial PRIMARY KEY,
  rule_id bigint NOT NULL REFERENCES surveillance_rules (id),
  -- What the alert is about: `movement:<kind>:<client_request_id>`, `journals:<account>:<day>`, `order:<account>:<client_order_id>`.
  subject text NOT NULL,
  account_id text,
  summary text NOT NULL,
  -- The movements ({kind, client_request_id, direction, amount, currency, at}) and orders ({id, client_order_id, …}) involved.
  movements jsonb NOT NULL DEFAULT '[]',
  orders jsonb NOT NULL DEFAULT '[]',
  details jsonb,
  occurred_at timestamptz NOT NULL,
  raised_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'cleared', 'escalated')),
  decided_at timestamptz,
  decided_by text,
  note text,
  UNIQUE (rule_id, subject)
);
-- The queue is newest first by id (ids are handed out as alerts are raised), exact for the keyset cursor.
CREATE INDEX alerts_status ON alerts (status, id DESC);
CREATE INDEX alerts_rule ON alerts (rule_id, id DESC);
CREATE INDEX alerts_raised ON alerts (raised_at);

-- Option levels the desk raised (accounts.update), with the level read just before the update.
CREATE TABLE option_level_changes (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL,
  from_level text,
  to_level text NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  changed_by text
);
CREATE INDEX option_level_changes_account ON option_level_changes (account_id, changed_at DESC);

-- What the rules read: the rows a projection batch changed (by their last event), funding and journals by account.
CREATE INDEX money_movements_surveillance_seq ON money_movements (last_event_seq);
CREATE INDEX money_movements_surveillance_account ON money_movements (account_id, kind, created_at) WHERE kind = 'INSTANT_FUNDING';
CREATE INDEX money_movements_surveillance_journals ON money_movements (to_account, created_at) WHERE kind IN ('CASH_JOURNAL', 'POSITION_JOURNAL');

-- One rule of each kind to start with; thresholds an administrator can change (Admin → Surveillance).
INSERT INTO surveillance_rules (kind, name, enabled, params) VALUES
  ('large_funding', 'Deposit or withdrawal above USD 50,000', true, '{"currency": "USD", "amount": "50000"}'),
  ('withdrawal_after_deposit', 'Withdrawal within 7 days of a deposit of similar size', true, '{"days": 7, "tolerancePct": 10, "minAmount": "10000"}'),
  ('journals_per_day', 'More than 5 journals into one account in a day', true, '{"count": 5}'),
  ('option_after_level_raise', 'Option order within 24 hours of an option level raise', true, '{"hours": 24}');
