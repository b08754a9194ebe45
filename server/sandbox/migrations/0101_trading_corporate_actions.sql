-- Corporate actions whose ex-date the market clock has reached (announced once as a CORPORATE_ACTION event).
CREATE TABLE announced_corporate_actions (
  event_id     text PRIMARY KEY,
  announced_at timestamptz NOT NULL
);
