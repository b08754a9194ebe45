-- The instrument page's view from the desk's books: an instrument's orders and executions, an option's counted
-- under its underlying (the OCC symbol's root), newest first, one index range each.
CREATE INDEX orders_underlying_listed
  ON orders ((COALESCE(substring(symbol FROM '^([A-Z.]{1,6})\s*[0-9]{6}[CP][0-9]{8}$'), symbol)), market, listed_at DESC, id DESC);
CREATE INDEX executions_underlying_filled
  ON executions ((COALESCE(substring(symbol FROM '^([A-Z.]{1,6})\s*[0-9]{6}[CP][0-9]{8}$'), symbol)), filled_at DESC, id DESC);
