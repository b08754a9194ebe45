import type { PGlite } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openEngine, type Engine } from "@/server/db/engine";

/**
 * PGlite's statements run as named prepared statements (server/db/pglite-statements.ts): parsed once per database,
 * one round trip a call, with the same values and rows as PGlite's own `query`, its errors, its notifications and
 * its locks.
 */
describe("PGlite prepared statements", () => {
  let engine: Engine;
  let db: PGlite;
  beforeEach(async () => {
    engine = await openEngine({ template: process.env.PGLITE_FRESH_TEMPLATE });
    db = engine.driver as PGlite;
    await engine.exec("CREATE TABLE things (id serial PRIMARY KEY, name text NOT NULL UNIQUE, doc jsonb, at timestamptz, n numeric)");
  });
  afterEach(() => engine.close());

  const prepared = async () =>
    (await db.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements ORDER BY prepare_time")).rows.map(
      (r) => r.statement,
    );

  it("parses a text once: its later calls reuse the named statement", async () => {
    const sql = "SELECT $1::int + 1 AS n";
    for (const i of [1, 2, 3]) expect((await engine.query<{ n: number }>(sql, [i])).rows).toEqual([{ n: i + 1 }]);
    await engine.transaction((tx) => tx.query(sql, [9]));
    expect(await prepared()).toEqual([sql]);
  });

  it("sends values and reads rows as PGlite's own query does, whatever their types", async () => {
    const at = new Date("2026-12-03T10:15:30.123Z");
    const doc = { a: [1, "two", null], b: { c: true } };
    const insert = "INSERT INTO things (name, doc, at, n) VALUES ($1, $2, $3, $4) RETURNING *";
    const ours = (await engine.query(insert, ["first", doc, at, "12.3400"])).rows;
    expect(ours).toEqual([{ id: 1, name: "first", doc, at, n: "12.3400" }]);
    await db.query(insert, ["second", null, null, null]);
    const reads: [string, unknown[]][] = [
      ["SELECT * FROM things WHERE name = ANY($1::text[]) ORDER BY id", [["first", "second"]]],
      ["SELECT id, doc->'b' AS b, at, $1::bool AS flag, $2::bigint AS big, NULL::text AS none FROM things ORDER BY id", [false, 2n ** 40n]],
      ["SELECT count(*) AS n, array_agg(name ORDER BY id) AS names, max(at) AS last FROM things", []],
      ["SELECT * FROM things WHERE at > $1", [new Date(0)]],
    ];
    for (const [sql, params] of reads) expect((await engine.query(sql, params)).rows, sql).toEqual((await db.query(sql, params)).rows);
  });

  it("answers an error with its SQLSTATE and takes the next statement; in a transaction the transaction is rolled back", async () => {
    const insert = "INSERT INTO things (name) VALUES ($1)";
    await engine.query(insert, ["taken"]);
    await expect(engine.query(insert, ["taken"])).rejects.toMatchObject({ code: "23505" });
    await expect(engine.query("SELECT $1::int AS n", ["not a number"])).rejects.toMatchObject({ code: "22P02" });
    expect((await engine.query("SELECT count(*)::int AS n FROM things")).rows).toEqual([{ n: 1 }]);

    await expect(
      engine.transaction(async (tx) => {
        await tx.query(insert, ["inside"]);
        await tx.query(insert, ["taken"]);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await engine.query<{ name: string }>("SELECT name FROM things ORDER BY id")).rows).toEqual([{ name: "taken" }]);
    expect(await engine.transaction((tx) => tx.query(insert, ["after"]).then(() => "committed"))).toBe("committed");
  });

  it("a statement outside a transaction waits for the one running: it never sees its uncommitted rows", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((r) => (inserted = r));
    const tx = engine.transaction(async (t) => {
      await t.query("INSERT INTO things (name) VALUES ($1)", ["pending"]);
      inserted();
      await held;
      await t.query("UPDATE things SET name = $1 WHERE name = $2", ["done", "pending"]);
    });
    await insertedOnce;
    let answered = false;
    const read = engine.query<{ name: string }>("SELECT name FROM things").then((r) => ((answered = true), r.rows));
    await new Promise((r) => setTimeout(r, 50));
    expect(answered).toBe(false);
    release();
    await tx;
    expect(await read).toEqual([{ name: "done" }]);
  });

  it("delivers the notifications a statement sends", async () => {
    const heard: string[] = [];
    await db.listen("things_changed", (payload) => heard.push(payload));
    await engine.query("SELECT pg_notify($1, $2)", ["things_changed", "one"]);
    await engine.transaction((tx) => tx.query("SELECT pg_notify($1, $2)", ["things_changed", "two"]));
    await expect.poll(() => heard).toEqual(["one", "two"]);
  });

  it("names the first 2,000 texts; later texts still answer, unnamed", async () => {
    for (let i = 0; i < 2_000; i++) await engine.query(`SELECT ${i} AS n`);
    expect((await engine.query("SELECT 2000 AS n")).rows).toEqual([{ n: 2000 }]);
    expect((await engine.transaction((tx) => tx.query("SELECT 2001 AS n"))).rows).toEqual([{ n: 2001 }]);
    const names = await prepared();
    expect(names).toHaveLength(2_000);
    expect(names).not.toContain("SELECT 2000 AS n");
  });
});
