import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { prepareAppDb } from "@/server/db";
import { migrate, openEngine, writePgliteTemplate, type Engine } from "@/server/db/engine";
import { SANDBOX_MIGRATIONS, SANDBOX_SCHEMA } from "@/server/sandbox";

/** Both schemas a test database may hold: the desk's and the sandbox's, as their migrations leave them. */
export async function migrateAll(engine: Engine) {
  await prepareAppDb(engine);
  await migrate(engine, SANDBOX_SCHEMA, SANDBOX_MIGRATIONS);
}

/**
 * The cluster dumps in-memory test databases start from, written into `dir`: a fresh cluster (`fresh`, as initdb
 * leaves it) and that cluster with both schemas migrated (`migrated`).
 */
export async function writePgliteTemplates(dir: string): Promise<{ fresh: string; migrated: string }> {
  const fresh = path.join(dir, "fresh-cluster.tar");
  await writePgliteTemplate(fresh);
  const engine = await openEngine({ template: fresh });
  const migrated = path.join(dir, "migrated-cluster.tar");
  try {
    await migrateAll(engine);
    fs.writeFileSync(migrated, Buffer.from(await (await (engine.driver as PGlite).dumpDataDir("none")).arrayBuffer()));
  } finally {
    await engine.close();
  }
  return { fresh, migrated };
}
