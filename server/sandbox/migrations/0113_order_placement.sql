-- An order placement in fewer round trips. Each function runs its statements one after the other inside the caller's
-- transaction, each with its own snapshot (READ COMMITTED), exactly as the separate statements they replace did.

-- The account of a placement with its per-account order lock taken (the key of `orders:<account_id>`), then, seeing
-- every placement committed before the lock was granted, the client_order_ids already used on it and the stock
-- instruments the orders name. NULL when the account does not exist.
CREATE FUNCTION order_context(p_account text, p_client_order_ids text[], p_markets text[], p_symbols text[]) RETURNS json
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  acc record;
  used json;
  named json;
BEGIN
  SELECT account_id, account_number, account_status, account_type, trading_permissions, option_level, commission_code INTO acc
    FROM sandbox.virtual_accounts WHERE account_id = p_account OR account_number = p_account LIMIT 1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('orders:' || acc.account_id));
  SELECT coalesce(json_agg(json_build_object('client_order_id', o.client_order_id, 'body_hash', o.body_hash)), '[]') INTO used
    FROM sandbox.orders o WHERE o.account_id = acc.account_id AND o.client_order_id = ANY(p_client_order_ids);
  SELECT coalesce(json_agg(json_build_object('market', i.market, 'symbol', i.symbol, 'instrument_id', i.instrument_id, 'currency', i.currency,
           'category', i.category, 'profile', i.profile, 'locate', i.locate)), '[]') INTO named
    FROM sandbox.instruments i JOIN unnest(p_markets, p_symbols) AS k(market, symbol) ON i.market = k.market AND i.symbol = k.symbol;
  RETURN json_build_object('account', row_to_json(acc), 'used', used, 'instruments', named);
END
$$;

-- Buying power and the hold of an order in one call: locks the balance row (creating it at zero), adds the loan value
-- of long stock positions for a MARGIN account (read after the lock), and when the power covers p_amount holds it.
-- Returns the power before the hold; the caller refuses the order when it is below p_amount.
CREATE FUNCTION hold_cash(p_account text, p_currency text, p_amount numeric, p_at timestamptz, p_margin boolean) RETURNS numeric
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  b sandbox.cash_balances;
  power numeric;
  loan numeric;
BEGIN
  INSERT INTO sandbox.cash_balances AS c (account_id, currency, updated_at) VALUES (p_account, p_currency, p_at)
    ON CONFLICT (account_id, currency) DO UPDATE SET account_id = c.account_id RETURNING c.* INTO b;
  power := b.cash_balance - b.unsettled_cash - b.held_amount - b.frozen_amount;
  IF p_margin THEN
    SELECT sum(p.quantity * i.last_price * (1 - coalesce((i.profile->>'margin_requirement_long')::numeric, 1))) INTO loan
      FROM sandbox.positions p JOIN sandbox.instruments i ON i.market = p.market AND i.symbol = p.symbol
     WHERE p.account_id = p_account AND p.currency = p_currency AND p.instrument_type = 'EQUITY' AND p.quantity > 0;
    power := power + coalesce(loan, 0);
  END IF;
  IF power >= p_amount THEN
    UPDATE sandbox.cash_balances SET held_amount = greatest(held_amount + p_amount, 0), updated_at = p_at
     WHERE account_id = p_account AND currency = p_currency;
  END IF;
  RETURN power;
END
$$;

