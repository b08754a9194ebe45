-- The movements list reads the read model only, newest first by `created_at` (when the desk first heard of the
-- movement), in keyset pages. Each selective filter has an index with that order behind it, so a page is an index
-- range whatever the table's size.
CREATE INDEX money_movements_created ON money_movements (created_at DESC, id DESC);
CREATE INDEX money_movements_kind_created ON money_movements (kind, created_at DESC, id DESC);
CREATE INDEX money_movements_status_created ON money_movements (status, created_at DESC, id DESC);
-- An account matches on either side: the account a funding or exchange is at, the journal's from- and to-account.
CREATE INDEX money_movements_account_created ON money_movements (account_id, created_at DESC, id DESC);
CREATE INDEX money_movements_from_created ON money_movements (from_account, created_at DESC, id DESC) WHERE from_account IS NOT NULL;
CREATE INDEX money_movements_to_created ON money_movements (to_account, created_at DESC, id DESC) WHERE to_account IS NOT NULL;
-- A currency matches the amount's currency or, for an exchange, the currency bought.
CREATE INDEX money_movements_currency_created ON money_movements (currency, created_at DESC, id DESC);
CREATE INDEX money_movements_to_currency_created ON money_movements (to_currency, created_at DESC, id DESC) WHERE to_currency IS NOT NULL;
CREATE INDEX money_movements_requester_created ON money_movements (requested_by, created_at DESC, id DESC) WHERE requested_by IS NOT NULL;
-- Quick views: not final (the upstream's and the desk's final statuses), rejected or failed, completed today.
CREATE INDEX money_movements_not_final_created ON money_movements (created_at DESC, id DESC)
  WHERE status NOT IN ('COMPLETED', 'CANCELED', 'REJECTED', 'FAILED', 'DECLINED', 'WITHDRAWN', 'EXPIRED');
CREATE INDEX money_movements_failed_created ON money_movements (created_at DESC, id DESC) WHERE status IN ('REJECTED', 'FAILED');
CREATE INDEX money_movements_completed_updated ON money_movements (updated_at DESC) WHERE status = 'COMPLETED';
