import { describe, expect, it } from "vitest";
import type { AppDb } from "@/server/db";
import { ingest, rebuildReadModel } from "@/server/books/ingest";
import { fromStream } from "@/server/events/ingest";
import { testEngines, withEngineDb } from "../helpers/engines";

/**
 * A rebuild replays every stored event once, in seq order, batch after batch: the batches once came in the seq's text
 * order, so a batch ended at "15" and the next started after it, and events 2 to 9 were never replayed. Both engines.
 */
const journal = (k: number, status: string) =>
  fromStream(
    JSON.stringify({
      id: `rebuild-${k}-${status}`,
      event_type: "JOURNAL",
      timestamp: `2026-11-03T08:${String(k).padStart(2, "0")}:00Z`,
      payload: {
        biz_type: "CASH_JOURNAL",
        journal_type: "CASH",
        client_request_id: `rj-${k}`,
        request_id: `j-rj-${k}`,
        account_id: "MASTER",
        from_account: "MASTER",
        to_account: "C1",
        amount: `${k}.00`,
        currency: "USD",
        status,
      },
    }),
  );

for (const engine of testEngines()) {
  describe(`a rebuild of the read model (${engine.name})`, () => {
    let db: AppDb;
    withEngineDb(engine, (d) => {
      db = d;
    });

    it("replays every stored event once, in seq order, however small its batches", async () => {
      // Twenty journals submitted, then each completed: 40 events, seqs 1 to 40.
      await ingest(
        db.engine,
        Array.from({ length: 20 }, (_, k) => journal(k + 1, "SUBMITTED")),
      );
      await ingest(
        db.engine,
        Array.from({ length: 20 }, (_, k) => journal(k + 1, "COMPLETED")),
      );
      const books = async () =>
        (
          await db.engine.query<{ crid: string; status: string; amount: string }>(
            "SELECT client_request_id AS crid, status, amount::text FROM brokerdesk.money_movements ORDER BY client_request_id",
          )
        ).rows;
      const before = await books();
      expect(before).toHaveLength(20);
      expect(before.every((m) => m.status === "COMPLETED")).toBe(true);

      expect(await rebuildReadModel(db.engine, 7)).toBe(40);
      expect(await books()).toEqual(before);
    });
  });
}
