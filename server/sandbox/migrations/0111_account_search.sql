-- Forgiving account search (the back office's list filters, a sandbox extension): names without case or accents
-- ("zoe" finds "Zoë", "Nunez" finds "Núñez"), account and external numbers without case; every one index-backed.

-- One extension per database: installed in public, where the desk's schema can use it too.
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;

-- The one folding rule, for stored names and for the searched text alike: compatibility decomposition, combining
-- marks dropped, the letters that do not decompose spelled out, lower case.
CREATE FUNCTION search_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT regexp_replace(regexp_replace(regexp_replace(
           lower(translate(regexp_replace(normalize(t, NFKD), '[\u0300-\u036f]', '', 'g'), 'ØøŁłĐđı', 'OoLlDdi')),
         '[Ææ]', 'ae', 'g'), '[Œœ]', 'oe', 'g'), 'ß', 'ss', 'g')
$$;

-- search_name is folded on every write, whatever the writer put there ("first last" of the W-8BEN).
CREATE FUNCTION virtual_accounts_fold_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_name := sandbox.search_fold(NEW.search_name);
  RETURN NEW;
END
$$;
CREATE TRIGGER virtual_accounts_fold_search BEFORE INSERT OR UPDATE OF search_name ON virtual_accounts
  FOR EACH ROW EXECUTE FUNCTION virtual_accounts_fold_search();
UPDATE virtual_accounts SET search_name = search_name;

CREATE INDEX virtual_accounts_search_name ON virtual_accounts USING gin (search_name public.gin_trgm_ops);
CREATE INDEX virtual_accounts_account_number_ci ON virtual_accounts (upper(account_number));
CREATE INDEX virtual_accounts_external_number_ci ON virtual_accounts (upper(external_account_number));
