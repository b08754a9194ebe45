-- The reviewer's filters of the audit trail, each served by an index that also gives the newest-first order (seq):
-- prefixes (action, target, actor) use the byte-wise operators of text_pattern_ops, so a prepared statement's generic
-- plan keeps the index; an approval's maker and checker are read from the execution entry's input.
CREATE INDEX audit_entries_action_prefix_idx ON audit_entries (action text_pattern_ops, seq);
CREATE INDEX audit_entries_actor_prefix_idx ON audit_entries (actor_email text_pattern_ops, seq);
CREATE INDEX audit_entries_role_seq_idx ON audit_entries (actor_role, seq);
CREATE INDEX audit_entries_outcome_seq_idx ON audit_entries (outcome, seq);
CREATE INDEX audit_entries_target_idx ON audit_entries (target text_pattern_ops, seq);
CREATE INDEX audit_entries_upstream_request_idx ON audit_entries (upstream_request_id, seq) WHERE upstream_request_id IS NOT NULL;
CREATE INDEX audit_entries_maker_idx ON audit_entries ((input ->> 'maker'), seq);
CREATE INDEX audit_entries_checker_idx ON audit_entries ((input ->> 'checker'), seq);
