import "server-only";
import type { Queryable } from "@/server/db/engine";

/**
 * Claims the demo's first morning for this database, once: a row of `job_watermarks` (the table of how far a
 * one-database job has got) that only the first caller inserts.
 */
export async function claimDemoFirstDay(db: Queryable): Promise<boolean> {
  const { rows } = await db.query(
    "INSERT INTO brokerdesk.job_watermarks (name, seq) VALUES ('demo-first-day', 1) ON CONFLICT (name) DO NOTHING RETURNING name",
  );
  return rows.length > 0;
}
