import "server-only";
import path from "node:path";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { env } from "@/lib/env";
import { migrate, openEngine, type Engine } from "./engine";
import * as schema from "./schema";

export type Orm = PgDatabase<PgQueryResultHKT, typeof schema>;
export interface AppDb {
  engine: Engine;
  orm: Orm;
}

export const APP_SCHEMA = "brokerdesk";
export const APP_MIGRATIONS = path.join(process.cwd(), "server/db/migrations");

/** Wraps an open engine: migrates the app schema and returns Drizzle over it. */
export async function prepareAppDb(engine: Engine): Promise<AppDb> {
  await migrate(engine, APP_SCHEMA, APP_MIGRATIONS);
  const orm =
    engine.kind === "pglite" ? drizzlePglite(engine.driver as PGlite, { schema }) : drizzlePg(engine.driver as pg.Pool, { schema });
  return { engine, orm: orm as unknown as Orm };
}

export function appDataDir(): string {
  return path.resolve(env().BROKERDESK_DATA_DIR, "app-db");
}

// One database per process, even when the bundler loads this module in several chunks.
const holder = globalThis as unknown as { __brokerdeskDb?: Promise<AppDb> };

export function getDb(): Promise<AppDb> {
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
