import "server-only";
import path from "node:path";
import { env } from "@/lib/env";
import { refuseWhileBuilding } from "@/server/build-phase";
import { migrate, openEngine, type Engine } from "./engine";

/** The app's database: the one engine, its schema `brokerdesk` migrated. SQL lives in each domain's queries module. */
export interface AppDb {
  engine: Engine;
}

export const APP_SCHEMA = "brokerdesk";
export const APP_MIGRATIONS = path.join(process.cwd(), "server/db/migrations");

/** Wraps an open engine: migrates the app schema. */
export async function prepareAppDb(engine: Engine): Promise<AppDb> {
  await migrate(engine, APP_SCHEMA, APP_MIGRATIONS);
  return { engine };
}

export function appDataDir(): string {
  return path.resolve(env().BROKERDESK_DATA_DIR, "app-db");
}

// One database per process, even when the bundler loads this module in several chunks.
const holder = globalThis as unknown as { __brokerdeskDb?: Promise<AppDb> };

export function getDb(): Promise<AppDb> {
  refuseWhileBuilding("The database");
  holder.__brokerdeskDb ??= (async () => {
    const e = env();
    const engine = await openEngine(e.DATABASE_URL ? { url: e.DATABASE_URL } : { dataDir: appDataDir() });
    return prepareAppDb(engine);
  })().catch((error) => {
    holder.__brokerdeskDb = undefined;
    throw error;
  });
  return holder.__brokerdeskDb;
}

/** Tests inject their own database. */
export function setDbForTests(db: AppDb | undefined): void {
  holder.__brokerdeskDb = db ? Promise.resolve(db) : undefined;
}

/** Whether the database answers (one trivial statement); throws when it does not. */
export async function pingDb(db: AppDb): Promise<void> {
  await db.engine.query("SELECT 1");
}
