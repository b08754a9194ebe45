-- A change of a staff row or of a role, whoever makes it (an action, a job, a script, an administrator's SQL), sends
-- the "staff" change notice on commit: every app instance drops the staff rows its session check keeps
-- (server/auth/staff-rows.ts), and open staff lists read their page again.
CREATE FUNCTION notify_staff_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('brokerdesk_changes', '{"topics":["staff"],"accounts":[]}');
  RETURN NULL;
END
$$;
CREATE TRIGGER staff_users_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON staff_users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_staff_change();
CREATE TRIGGER staff_roles_notice AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON staff_roles
  FOR EACH STATEMENT EXECUTE FUNCTION notify_staff_change();
