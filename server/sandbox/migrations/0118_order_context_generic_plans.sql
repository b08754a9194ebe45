-- order_context (migration 0113) keeps one plan of each of its statements per connection. Left to choose, PostgreSQL
-- planned its client_order_id check and its instruments read anew on every call: with an array argument the one plan
-- for any argument is estimated dearer than a plan for the array at hand, so it was never kept, and planning was some
-- 50 µs of the database's CPU per placement (a third of the function's time; pgbench, 16 clients, 2 cores). The plans
-- are the same for any argument (the account's unique indexes; the instruments by market and symbol), so the one
-- plan is kept.
ALTER FUNCTION order_context(text, text[], text[], text[]) SET plan_cache_mode = force_generic_plan;
