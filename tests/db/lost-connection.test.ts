import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEngine, type Engine } from "@/server/db/engine";
import { createServerDatabase } from "../helpers/engines";

/**
 * The engine on a PostgreSQL server whose backends are terminated (`pg_terminate_backend`, what a failover, a server
 * restart or an operator does): a transaction that loses its connection fails cleanly, the process goes on, and the
 * pool's next transaction and statement run on fresh connections. On the server only (PGlite has no backends).
 */
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("a lost database connection (postgres)", () => {
  let url: string;
  let drop: () => Promise<void>;
  let engine: Engine;
  let admin: pg.Client;
  beforeAll(async () => {
    ({ url, drop } = await createServerDatabase(serverUrl!));
    engine = await openEngine({ url, poolSize: 4 });
    await engine.query("CREATE TABLE marks (id int PRIMARY KEY)");
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await engine?.close();
    await drop?.();
  });

  /** Terminates every backend of the test database (the admin connection is to another database). */
  const terminateAll = async () => {
    const { rows } = await admin.query<{ n: string }>(
      "SELECT count(pg_terminate_backend(pid))::text AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [new URL(url).pathname.slice(1)],
    );
    return Number(rows[0].n);
  };

  it("fails a transaction whose backend was terminated while it was checked out, and runs the next ones", async () => {
    let terminated = 0;
    const failed = engine.transaction(async (tx) => {
      await tx.query("INSERT INTO marks (id) VALUES (1)");
      // Between two statements the client sits checked out and idle: the backend dies under it.
      terminated = await terminateAll();
      await new Promise((r) => setTimeout(r, 200));
      await tx.query("INSERT INTO marks (id) VALUES (2)");
    });
    await expect(failed).rejects.toThrow();
    expect(terminated).toBeGreaterThan(0);
    // Nothing of it committed, and the pool serves the next transaction and statement.
    await engine.transaction(async (tx) => {
      await tx.query("INSERT INTO marks (id) VALUES (3)");
    });
    const { rows } = await engine.query<{ id: number }>("SELECT id FROM marks ORDER BY id");
    expect(rows.map((r) => r.id)).toEqual([3]);
  });

  it("runs transactions and statements again after every backend of the pool was terminated while idle", async () => {
    // Fill the pool with idle connections, then end all of them.
    await Promise.all([1, 2, 3, 4].map(() => engine.query("SELECT pg_sleep(0.05)")));
    expect(await terminateAll()).toBeGreaterThan(0);
    await engine.transaction(async (tx) => {
      await tx.query("INSERT INTO marks (id) VALUES (4)");
    });
    await engine.query("INSERT INTO marks (id) VALUES (5)");
    const { rows } = await engine.query<{ id: number }>("SELECT id FROM marks WHERE id > 3 ORDER BY id");
    expect(rows.map((r) => r.id)).toEqual([4, 5]);
  });
});
