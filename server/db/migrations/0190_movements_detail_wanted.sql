-- The completed FX requests whose bought amount or rate the books lack and whose detail was never read (their
-- events carry the request's fields only): the order-details job reads each once (completeMovementDetails in
-- server/events/sync.ts), after every batch of movements.
CREATE INDEX money_movements_fx_detail_wanted ON money_movements (updated_at)
  WHERE kind = 'FX_EXCHANGE' AND status = 'COMPLETED' AND (to_amount IS NULL OR fx_rate IS NULL) AND detail_at IS NULL;
