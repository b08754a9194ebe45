-- An action held by its approval policy is audited with outcome 'held' (the work did not run; an approval request
-- was made). Widening the check changes no row: the append-only trigger is on row changes, not on the table.
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_outcome_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_outcome_check CHECK (outcome IN ('success', 'failure', 'denied', 'held'));
