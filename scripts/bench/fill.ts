import "server-only";
import type { Engine } from "@/server/db/engine";
import { MASTER_ACCOUNT_NUMBER, MASTER_OPTION_LEVEL } from "@/server/sandbox/account-store";
import { masterAccountId } from "@/server/sandbox/seed";

/** How many of the filled accounts, whatever their total, are named "Bench Núñez" (the name search's needle). */
export const NAMED = 5;

/**
 * `total` virtual accounts under the master account, written with one SQL statement into a migrated, unseeded
 * sandbox schema (not `total` HTTP calls): the same columns createVirtualAccount writes; statuses and types vary so
 * filters have work to do. The first NAMED are named Núñez, the rest User<n>: a name search for "nunez" finds the same
 * few at any total. With `markSeeded`, a sandbox started on it later does not seed.
 */
export async function fillAccounts(engine: Engine, total: number, markSeeded = false) {
  const master = masterAccountId();
  const created = new Date(Date.UTC(2026, 0, 1));
  await engine.query(
    "INSERT INTO sandbox.master_accounts (account_id, account_number, app_key, option_level, created_at) VALUES ($1,$2,$3,$4,$5)",
    [master, MASTER_ACCOUNT_NUMBER, "brokerdesk-demo-key", MASTER_OPTION_LEVEL, created],
  );
  await engine.query(
    `INSERT INTO sandbox.virtual_accounts (account_id, account_number, external_account_number, belong_account_id, account_type,
       account_status, trading_permissions, option_level, commission_code, w8ben_info, china_connect_investor_info, search_name, created_at, updated_at)
     SELECT md5('bench:' || g), 'VBD' || (3000000 + g), (3000000 + g)::text, $1, CASE WHEN g % 3 = 0 THEN 'CASH' ELSE 'MARGIN' END,
       CASE WHEN g % 10 = 0 THEN 'SUSPENDED' ELSE 'ACTIVE' END, ARRAY['US_STOCK_NORMAL'], NULL, 'COMMISSION_GROUP_1',
       jsonb_build_object('first_name', 'Bench', 'middle_name', '', 'last_name', CASE WHEN g <= ${NAMED} THEN 'Núñez' ELSE 'User' || g END, 'tax_id', 'TX' || g, 'sign_date', '2026-01-01',
         'home_address', jsonb_build_object('country', 'HK', 'city', 'Hong Kong', 'street_address', g || ' Harbour Road'),
         'mail_address', jsonb_build_object('country', 'HK', 'city', 'Hong Kong', 'street_address', g || ' Harbour Road')),
       NULL, CASE WHEN g <= ${NAMED} THEN 'Bench Núñez' ELSE 'bench user' || g END, $2::timestamptz + g * interval '1 second', $2::timestamptz + g * interval '1 second'
     FROM generate_series(1, $3) AS g`,
    [master, created, total],
  );
  if (markSeeded) await engine.query("INSERT INTO sandbox.seed_state (id, seeded_at) VALUES (1, now())");
}
