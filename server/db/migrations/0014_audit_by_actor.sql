-- A staff member's own latest entries (the home page's recent activity), newest first.
CREATE INDEX audit_entries_actor_seq_idx ON audit_entries (actor_id, seq DESC);
