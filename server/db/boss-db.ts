import "server-only";
import PgBoss from "pg-boss";
import type { PGlite } from "@electric-sql/pglite";
import type { Engine } from "@/server/db/engine";

/** pg-boss's own schema: its tables, functions and partitions, apart from the app's `brokerdesk`. */
export const JOBS_SCHEMA = "brokerdesk_jobs";

/**
 * pg-boss's `db` over our engine. pg-boss sends parameterised statements one at a time, and its schema creation,
 * migrations and maintenance as scripts of several statements without parameters (BEGIN; advisory lock; …; COMMIT):
 * those go through the simple protocol (`exec`). On PGlite (one connection, serialised with the engine's
 * transactions) a script that fails inside its BEGIN is rolled back at once, so the connection is never left in an
 * aborted transaction.
 */
export function bossDb(engine: Engine): PgBoss.Db {
  if (engine.kind === "postgres") {
    // node-postgres runs a script without values as a simple query and a statement with values as its own.
    const pool = engine.driver as import("pg").Pool;
    return { executeSql: (text, values) => pool.query(text, values?.length ? values : undefined) };
  }
  const db = engine.driver as PGlite;
  return {
    async executeSql(text, values) {
      if (values?.length) return engine.query(text, values);
      try {
        const results = await db.exec(text);
        return { rows: [...results].reverse().find((r) => r.rows.length)?.rows ?? [] };
      } catch (error) {
        await db.exec("ROLLBACK").catch(() => undefined);
        throw error;
      }
    },
  };
}

export interface BossOptions {
  /** Run pg-boss's maintenance (expiry of jobs whose worker died, archiving) and its cron schedules here. */
  supervise: boolean;
  /** Seconds between maintenance runs (expiry: a dead worker's job is failed, then retried, within this much after it expired). */
  maintenanceIntervalSeconds?: number;
}

/** A started boss on `engine`, its schema created or migrated on the way. */
export async function openBoss(engine: Engine, o: BossOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    db: bossDb(engine),
    schema: JOBS_SCHEMA,
    supervise: o.supervise,
    schedule: o.supervise,
    maintenanceIntervalSeconds: o.maintenanceIntervalSeconds ?? 30,
    // Completed and failed jobs stay a day in the job table (the admin page's recent jobs), a week in the archive.
    archiveCompletedAfterSeconds: 86_400,
    deleteAfterDays: 7,
  });
  await boss.start();
  return boss;
}
