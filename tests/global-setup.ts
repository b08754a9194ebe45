import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openEngine } from "@/server/db/engine";
import { createServerDatabase } from "./helpers/engines";
import { migrateAll, writePgliteTemplates } from "./helpers/pglite-templates";

/**
 * Once per test run, the databases every file's databases start from, migrated: running the migrations was the larger
 * part of opening a database (about 1 s of CPU on PGlite, 4 s on the PostgreSQL server), and a run opens hundreds.
 * - PGlite: a cluster dump (PGLITE_TEMPLATE) that in-memory databases are loaded from instead of initdb and the
 *   migrations; `migrate` then finds every file applied. The fresh cluster it was made from: PGLITE_FRESH_TEMPLATE.
 * - The PostgreSQL server (TEST_DATABASE_URL): a template database (TEST_DATABASE_TEMPLATE) that test databases are
 *   created from (`createServerDatabase`), dropped when the run ends.
 * A test that needs a database as created asks for it (`open({ empty: true })`).
 */
export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "brokerdesk-pglite-"));
  const { fresh, migrated } = await writePgliteTemplates(dir);
  process.env.PGLITE_FRESH_TEMPLATE = fresh;
  process.env.PGLITE_TEMPLATE = migrated;

  let dropTemplate: (() => Promise<void>) | undefined;
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const template = await createServerDatabase(serverUrl, { empty: true });
    const server = await openEngine({ url: template.url, poolSize: 1 });
    try {
      await migrateAll(server);
    } finally {
      await server.close();
    }
    process.env.TEST_DATABASE_TEMPLATE = new URL(template.url).pathname.slice(1);
    dropTemplate = template.drop;
  }
  return async () => {
    await dropTemplate?.();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
