-- The account list's JSON of each account, written once per write of the row instead of once per read (issue 30):
-- every member of accountView after belong_account_number, in its order, absent when null, exactly as the list
-- wrote them on every read before (ACCOUNT_JSON_SQL in server/sandbox/accounts.ts). The master's account number is
-- still joined at read time (another table's row). A BEFORE trigger on every insert and update keeps it current,
-- whoever the writer (routes, seed, control API, bench fill).
ALTER TABLE virtual_accounts ADD COLUMN view_json text NOT NULL DEFAULT '';

CREATE FUNCTION virtual_accounts_view_json() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.view_json := concat_ws(',',
    '"belong_account_id":' || to_json(NEW.belong_account_id)::text,
    '"account_number":' || to_json(NEW.account_number)::text, '"account_id":' || to_json(NEW.account_id)::text,
    '"external_account_number":' || to_json(NEW.external_account_number)::text, '"account_type":' || to_json(NEW.account_type)::text,
    '"account_status":' || to_json(NEW.account_status)::text, '"trading_permissions":' || to_json(NEW.trading_permissions)::text,
    '"option_level":' || to_json(NEW.option_level)::text, '"commission_code":' || to_json(NEW.commission_code)::text,
    '"w8ben_info":' || nullif(NEW.w8ben_info, 'null')::text,
    '"china_connect_investor_info":' || nullif(NEW.china_connect_investor_info, 'null')::text,
    '"create_time":"' || to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"',
    '"update_time":"' || to_char(NEW.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"');
  RETURN NEW;
END
$$;
CREATE TRIGGER virtual_accounts_view_json BEFORE INSERT OR UPDATE ON virtual_accounts
  FOR EACH ROW EXECUTE FUNCTION virtual_accounts_view_json();
UPDATE virtual_accounts SET view_json = '';
