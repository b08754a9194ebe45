import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { openEngine } from "@/server/db/engine";
import { writePgliteTemplates } from "../tests/helpers/pglite-templates";
import { option } from "./args";
import { run } from "./bench/run";

/**
 * `npm run bench:db-open [-- --opens N]`: what opening an in-memory PGlite database costs, as the test run opens hundreds
 * (each test file its own): from the cluster dump with the desk's and the sandbox's migrations applied that
 * tests/global-setup.ts writes (`writePgliteTemplates`). Opened N times (default 10) as `openEngine` opens it, and as
 * PGlite's defaults would (the dump in Node's own Blob, PostgreSQL's 128 MB buffer pool). Prints the wall and CPU time
 * of an open (the database started and one query answered) and the dump's size.
 */
const OPENS = Number(option("opens") ?? 10);

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function measure(name: string, open: () => Promise<{ close(): Promise<void>; query(sql: string): Promise<unknown> }>) {
  let wall = 0;
  let cpu = 0;
  for (let i = 0; i < OPENS; i++) {
    const [t0, c0] = [performance.now(), cpuMs()];
    const db = await open();
    await db.query("SELECT 1");
    [wall, cpu] = [wall + performance.now() - t0, cpu + cpuMs() - c0];
    await db.close();
  }
  console.log(`${name.padEnd(34)} ${(wall / OPENS).toFixed(0).padStart(6)} ms wall ${(cpu / OPENS).toFixed(0).padStart(6)} ms CPU an open`);
}

run(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-db-open-"));
  try {
    const { migrated: template } = await writePgliteTemplates(dir);
    console.log(
      `${OPENS} opens of an in-memory database from a migrated cluster dump of ${(fs.statSync(template).size / 2 ** 20).toFixed(0)} MB`,
    );

    await measure("openEngine", () => openEngine({ template }));
    await measure("PGlite defaults (Blob, 128 MB pool)", () =>
      PGlite.create("memory://", { extensions: { pg_trgm }, loadDataDir: new Blob([fs.readFileSync(template)]) }),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
