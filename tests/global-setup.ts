import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { writePgliteTemplate } from "@/server/db/engine";

/**
 * Once per test run: a fresh PGlite cluster that every file's in-memory databases are loaded from (PGLITE_TEMPLATE),
 * instead of each running initdb, which was the larger part of many files' set-up. Removed when the run ends.
 */
export default async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "brokerdesk-pglite-"));
  const file = path.join(dir, "fresh-cluster.tar");
  await writePgliteTemplate(file);
  process.env.PGLITE_TEMPLATE = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
