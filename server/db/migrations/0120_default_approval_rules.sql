-- Four-eyes from the first start: one default rule per kind of money movement, so a large movement waits for a
-- second person before anything is sent, until an administrator changes the rules (Admin → Approval rules, where
-- these are ordinary rules: edited, disabled or joined by others). The thresholds are in the movement's own
-- currency, whichever it is (a per-currency rule can replace them); a position journal carries no amount, so every one
-- waits. One approver, an administrator or an operator (the roles that may decide). Only a desk without rules gets
-- them: one whose administrators already set rules keeps exactly those.
INSERT INTO approval_rules (action, currency, threshold, approvers_required, approver_roles, created_by)
SELECT d.action, NULL, d.threshold, 1, ARRAY['admin', 'operations'], 'default'
  FROM (VALUES
    ('movements.cash_journal', 50000::numeric),
    ('movements.position_journal', NULL::numeric),
    ('movements.instant_funding.DEPOSIT', 100000::numeric),
    ('movements.instant_funding.WITHDRAWAL', 25000::numeric),
    ('movements.fx_request', 100000::numeric),
    ('movements.instant_exchange', 100000::numeric)
  ) AS d(action, threshold)
 WHERE NOT EXISTS (SELECT 1 FROM approval_rules);
