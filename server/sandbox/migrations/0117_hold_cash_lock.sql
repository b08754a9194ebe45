-- hold_cash (migration 0113) without a second write of the balance row: the row is locked by SELECT … FOR UPDATE and
-- only created (at zero, by the same upsert as before) when it does not exist yet. The upsert's DO UPDATE wrote a new
-- version of the row on every call before the hold wrote another. Same lock, same reads, same result.
CREATE OR REPLACE FUNCTION hold_cash(p_account text, p_currency text, p_amount numeric, p_at timestamptz, p_margin boolean) RETURNS numeric
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  b sandbox.cash_balances;
  power numeric;
  loan numeric;
BEGIN
  SELECT * INTO b FROM sandbox.cash_balances WHERE account_id = p_account AND currency = p_currency FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO sandbox.cash_balances AS c (account_id, currency, updated_at) VALUES (p_account, p_currency, p_at)
      ON CONFLICT (account_id, currency) DO UPDATE SET account_id = c.account_id RETURNING c.* INTO b;
  END IF;
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
