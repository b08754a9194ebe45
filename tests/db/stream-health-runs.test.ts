import { describe, expect, it } from "vitest";
import { type AppDb } from "@/server/db";
import { streamHealth } from "@/server/books/health";
import { testEngines, withEngineDb } from "../helpers/engines";

/**
 * The stream-health page shows the newest backfill and reconciliation runs. Run ids are numbers: the 10th run is
 * newer than the 9th (ordered as text, "9" came after "13", and the page kept showing an old run).
 */
for (const engine of testEngines()) {
  describe(`stream health's last runs on ${engine.name}`, () => {
    let db: AppDb;
    withEngineDb(engine, async (fresh) => {
      db = fresh;
    });

    it("names the newest reconciliation however many runs there were", async () => {
      for (let i = 1; i <= 13; i++) {
        await db.engine.query("INSERT INTO brokerdesk.sync_runs (job, status, requested_by) VALUES ($1, 'done', $2)", [
          i % 2 ? "reconcile" : "activities",
          `run${i}`,
        ]);
      }
      const health = await streamHealth(db.engine, 30_000);
      expect(health.reconciliation?.requestedBy).toBe("run13");
      expect(health.backfill).toBeUndefined();
    });
  });
}
