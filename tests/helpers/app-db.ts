import { afterAll, beforeAll } from "vitest";
import { prepareAppDb, setDbForTests, type AppDb } from "@/server/db";
import { openEngine } from "@/server/db/engine";

/** A fresh in-memory app database for the file's tests, installed as the process database (what getDb() returns). */
export function withAppDb(): () => AppDb {
  let db: AppDb;
  beforeAll(async () => {
    db = await prepareAppDb(await openEngine({}));
    setDbForTests(db);
  });
  afterAll(async () => {
    setDbForTests(undefined);
    await db.engine.close();
  });
  return () => db;
}
