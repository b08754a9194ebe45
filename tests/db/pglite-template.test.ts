import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { prepareAppDb } from "@/server/db";
import { openEngine, writePgliteTemplate } from "@/server/db/engine";

/** PGLITE_TEMPLATE: an in-memory database starts as the cluster in the file, not from initdb. */
describe("PGlite template", () => {
  const saved = process.env.PGLITE_TEMPLATE;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-template-test-"));
  afterEach(() => {
    process.env.PGLITE_TEMPLATE = saved;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("an in-memory database is loaded from the template's cluster; a database on disk is not", async () => {
    // A cluster with a mark of its own, so that a database made by initdb cannot pass for it.
    const marked = await PGlite.create("memory://");
    await marked.exec("CREATE TABLE template_mark (n int); INSERT INTO template_mark VALUES (7)");
    const file = path.join(dir, "marked.tar");
    fs.writeFileSync(file, Buffer.from(await (await marked.dumpDataDir("none")).arrayBuffer()));
    await marked.close();

    process.env.PGLITE_TEMPLATE = file;
    const fromTemplate = await openEngine({});
    expect((await fromTemplate.query<{ n: number }>("SELECT n FROM template_mark")).rows).toEqual([{ n: 7 }]);
    await fromTemplate.close();

    const onDisk = await openEngine({ dataDir: path.join(dir, "on-disk") });
    expect((await onDisk.query<{ t: string | null }>("SELECT to_regclass('template_mark')::text AS t")).rows).toEqual([{ t: null }]);
    await onDisk.close();
  });

  it("databases loaded from one template share its bytes: what one writes, the next does not start with", async () => {
    const file = path.join(dir, "shared.tar");
    await writePgliteTemplate(file);
    const first = await openEngine({ template: file });
    await first.exec("CREATE TABLE written_by_first (n int); INSERT INTO written_by_first VALUES (1)");
    await first.close();
    const second = await openEngine({ template: file });
    expect((await second.query<{ t: string | null }>("SELECT to_regclass('written_by_first')::text AS t")).rows).toEqual([{ t: null }]);
    await second.close();
  });

  it("an in-memory database keeps a 16 MB buffer pool (its files are memory already); one on disk keeps PostgreSQL's", async () => {
    const shared = async (engine: Awaited<ReturnType<typeof openEngine>>) => {
      const [row] = (await engine.query<{ shared_buffers: string }>("SHOW shared_buffers")).rows;
      await engine.close();
      return row.shared_buffers;
    };
    expect(await shared(await openEngine({}))).toBe("16MB");
    expect(await shared(await openEngine({ dataDir: path.join(dir, "pool-on-disk") }))).toBe("128MB");
  });

  it("writePgliteTemplate writes a fresh cluster that the app's migrations run on", async () => {
    const file = path.join(dir, "fresh.tar");
    await writePgliteTemplate(file);
    process.env.PGLITE_TEMPLATE = file;
    const engine = await openEngine({});
    const db = await prepareAppDb(engine);
    expect((await db.engine.query<{ n: string }>("SELECT count(*)::text AS n FROM brokerdesk.staff_users")).rows[0].n).toBe("0");
    await db.engine.close();
  });
});
