import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { prepareAppDb, setDbForTests, type AppDb } from "@/server/db";
import { openEngine, type Engine } from "@/server/db/engine";

/**
 * The database engines integration tests run against: embedded PGlite always, and the PostgreSQL server when
 * TEST_DATABASE_URL is set (CI sets it). Each `open()` gives a fresh database with the desk's and the sandbox's
 * schemas migrated (from the run's templates, tests/global-setup.ts), or with `empty` one as created; `close()`
 * removes it.
 */
export interface TestEngine {
  name: "pglite" | "postgres";
  open(opts?: { empty?: boolean }): Promise<{ engine: Engine; url?: string; close(): Promise<void> }>;
}

export function testEngines(): TestEngine[] {
  const engines: TestEngine[] = [
    {
      name: "pglite",
      open: async ({ empty = false } = {}) => {
        const engine = await openEngine({ template: empty ? process.env.PGLITE_FRESH_TEMPLATE : undefined });
        return { engine, close: () => engine.close() };
      },
    },
  ];
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    engines.push({
      name: "postgres",
      open: async ({ empty = false } = {}) => {
        const { url, drop } = await createServerDatabase(serverUrl, { empty });
        const engine = await openEngine({ url, poolSize: 5 });
        return {
          engine,
          url,
          close: async () => {
            await engine.close();
            await drop();
          },
        };
      },
    });
  }
  return engines;
}

/**
 * Creates a uniquely named database on the server of `baseUrl` and returns its URL and a function that drops it: a
 * copy of the run's migrated template (TEST_DATABASE_TEMPLATE) unless `empty`.
 */
export async function createServerDatabase(
  baseUrl: string,
  { empty = false }: { empty?: boolean } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `bd_test_${randomBytes(6).toString("hex")}`;
  const template = empty ? undefined : process.env.TEST_DATABASE_TEMPLATE;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * A fresh, migrated app database on `engine` for the describe block this is called in: opened before its tests
 * (`ready` receives it, to keep and to seed), removed after them.
 */
export function withEngineDb(engine: TestEngine, ready: (db: AppDb) => Promise<void> | void): void {
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await engine.open();
    close = opened.close;
    await ready(await prepareAppDb(opened.engine));
  });
  afterAll(() => close?.());
}

/**
 * `withEngineDb`, the database also installed as the process database (what getDb() returns) for the block's tests,
 * as route handlers and actions read it.
 */
export function withProcessDb(engine: TestEngine, ready: (db: AppDb) => void): void {
  withEngineDb(engine, (db) => {
    ready(db);
    setDbForTests(db);
  });
  afterAll(() => setDbForTests(undefined));
}
