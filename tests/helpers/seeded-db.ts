import type { AppDb } from "@/server/db";
import { withEngineDb, type TestEngine } from "./engines";

/**
 * A fresh, migrated app database on `engine` for the describe block this is called in (withEngineDb's), seeded by
 * `seed` before its tests. The object answered is filled in place once the database is ready, so the block's tests
 * read it directly.
 */
export function useSeededDb(engine: TestEngine, seed: (db: AppDb) => Promise<void>): AppDb {
  const db = {} as AppDb;
  withEngineDb(engine, async (fresh) => {
    Object.assign(db, fresh);
    await seed(db);
  });
  return db;
}
