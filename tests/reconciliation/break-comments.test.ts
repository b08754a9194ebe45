import { describe, expect, it } from "vitest";
import type { AppDb } from "@/server/db";
import { commentOn, getBreak } from "@/server/reconciliation/breaks";
import { testEngines, withProcessDb } from "../helpers/engines";

/**
 * A break's comments read in the order they were written, however many: the thread once sorted by the id's text, so
 * the tenth comment came before the second. Both engines.
 */
for (const engine of testEngines()) {
  describe(`a break's comments (${engine.name})`, () => {
    let db: AppDb;
    withProcessDb(engine, (d) => (db = d));

    it("come back in the order written, past the tenth", async () => {
      const { rows } = await db.engine.query<{ id: string }>(
        `WITH run AS (INSERT INTO brokerdesk.reconciliation_runs (trigger, status) VALUES ('request', 'done') RETURNING id)
         INSERT INTO brokerdesk.reconciliation_breaks (kind, subject, summary, first_run_id, last_run_id)
         SELECT 'cash', 'a-1:USD', 'a-1: the upstream''s USD cash differs', run.id, run.id FROM run RETURNING id::text AS id`,
      );
      const breakId = rows[0].id;
      const bodies = Array.from({ length: 12 }, (_, k) => `Comment ${k + 1}`);
      for (const body of bodies) await commentOn(db.engine, breakId, "ops@desk.test", body);
      expect((await getBreak(db.engine, breakId)).comments.map((c) => c.body)).toEqual(bodies);
    });
  });
}
