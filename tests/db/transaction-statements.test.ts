import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEngine, type Engine } from "@/server/db/engine";
import { createServerDatabase } from "../helpers/engines";

/**
 * Statements a transaction's code sends together (Promise.all over its reads, as a statement of an account does) run
 * one at a time on the transaction's one connection, in the order sent, without leaning on the driver's own queue
 * (node-postgres 8 warns that it goes in version 9). On the server only: PGlite runs one statement at a time anyway.
 */
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)("statements sent together in a transaction (postgres)", () => {
  let drop: () => Promise<void>;
  let engine: Engine;
  beforeAll(async () => {
    let url: string;
    ({ url, drop } = await createServerDatabase(serverUrl!));
    engine = await openEngine({ url, poolSize: 2 });
    await engine.query("CREATE SEQUENCE turns");
  });
  afterAll(async () => {
    await engine?.close();
    await drop?.();
  });

  it("run in the order sent, each answering its own caller, and the driver never holds two at once", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      const answers = await engine.transaction((tx) =>
        Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            tx.query<{ caller: number; turn: string }>("SELECT $1::int AS caller, nextval('turns')::text AS turn, pg_sleep(0.005)", [i]),
          ),
        ),
      );
      expect(answers.map((a) => a.rows[0].caller)).toEqual(Array.from({ length: 12 }, (_, i) => i));
      expect(answers.map((a) => Number(a.rows[0].turn))).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      // A refused statement answers its own caller; the ones sent after it still get their turn (and are refused by the
      // aborted transaction, which rolls back).
      const refused = engine.transaction(async (tx) => {
        const [bad, after] = await Promise.allSettled([tx.query("SELECT 1 / 0"), tx.query("SELECT 1")]);
        expect(bad.status).toBe("rejected");
        expect(after.status).toBe("rejected");
        throw (bad as PromiseRejectedResult).reason;
      });
      await expect(refused).rejects.toThrow(/division by zero/);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((m) => m.includes("already executing a query"))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
