import "server-only";
import type { Engine, Tx } from "@/server/db/engine";
import { MASTER_ACCOUNT_NUMBER, MASTER_OPTION_LEVEL } from "../account-store";
import type { SandboxConfig } from "../context";
import { idFrom } from "../ids";
import { seedAccountId, seedAccounts } from "./accounts";
import { seedCatalog } from "./catalog";
import { seedOrders } from "./orders";

/**
 * Deterministic seed: the same content on every run, its dates counted back from the seed day (UTC midnight).
 * Seeding happens once (seed_state marks it); reset wipes every sandbox table and seeds again.
 */
const TABLES = [
  "activities",
  "positions",
  "cash_balances",
  "requests",
  "virtual_accounts",
  "master_accounts",
  "instruments",
  "option_contracts",
  "corporate_actions",
  "tokens",
  "seed_state",
  "trading_credentials",
  "watchlist_instruments",
  "watchlists",
  "orders",
  "executions",
  "option_exercises",
  "announced_corporate_actions",
];
export const masterAccountId = () => idFrom(`master:${MASTER_ACCOUNT_NUMBER}`);

async function seedAll(tx: Tx, config: SandboxConfig): Promise<void> {
  const now = config.now();
  const anchor = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const masterId = masterAccountId();
  await tx.query(
    "INSERT INTO sandbox.master_accounts (account_id, account_number, app_key, option_level, created_at) VALUES ($1,$2,$3,$4,$5)",
    [masterId, MASTER_ACCOUNT_NUMBER, config.appKey, MASTER_OPTION_LEVEL, new Date(anchor.getTime() - 200 * 86_400_000)],
  );
  await seedCatalog(tx, anchor);
  const { rows } = await tx.query<{ key: string; last_price: string }>(
    "SELECT market || ':' || symbol AS key, last_price FROM sandbox.instruments",
  );
  await seedAccounts(tx, masterId, anchor, new Map(rows.map((r) => [r.key, r.last_price])));
  await seedOrders(tx, anchor, seedAccountId, config.marketSeed);
  await tx.query("INSERT INTO sandbox.seed_state (id, seeded_at) VALUES (1, $1)", [now]);
}

/** Seeds an empty sandbox schema; a no-op once seeded (safe with several processes: advisory lock). */
export async function seedIfEmpty(engine: Engine, config: SandboxConfig): Promise<boolean> {
  return engine.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('sandbox:seed'))");
    const { rows } = await tx.query("SELECT 1 FROM sandbox.seed_state");
    if (rows.length) return false;
    await seedAll(tx, config);
    return true;
  });
}

export async function resetToSeed(engine: Engine, config: SandboxConfig): Promise<void> {
  await engine.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('sandbox:seed'))");
    await tx.query(`TRUNCATE ${TABLES.map((t) => `sandbox.${t}`).join(", ")}`);
    await seedAll(tx, config);
  });
}
