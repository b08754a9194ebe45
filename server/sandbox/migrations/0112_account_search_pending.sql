-- The name search's trigram index takes new names at once instead of in GIN's pending list: a search reads the whole
-- pending list (up to 4 MB of rows, unsorted), so with it a search grows with the accounts created since the last
-- vacuum. Account creation is rare next to searching; the index entries are written with the account.
ALTER INDEX virtual_accounts_search_name SET (fastupdate = off);
SELECT gin_clean_pending_list('virtual_accounts_search_name'::regclass);
