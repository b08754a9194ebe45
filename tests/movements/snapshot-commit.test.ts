import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromEnvelope, ingest } from "@/server/books/ingest";
import { movementSeq } from "@/server/books/queries/snapshots";
import { applyMovementSnapshot } from "@/server/books/snapshots";
import { prepareAppDb } from "@/server/db";
import type { Engine } from "@/server/db/engine";
import { testEngines } from "../helpers/engines";

/**
 * A movement detail that fills an FX request's bought amount and rate commits them together with the time the detail
 * was read: a reader that sees the amount sees `detail_at` too (the desk's page and its tests read both at once).
 */
for (const engine of testEngines()) {
  describe(`a movement snapshot's commit on ${engine.name}`, () => {
    let db: Engine;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const opened = await engine.open();
      close = opened.close;
      db = (await prepareAppDb(opened.engine)).engine;
    });
    afterAll(() => close());

    it("fills the bought amount, the rate and detail_at in one commit", async () => {
      const completion = { client_request_id: "FX-1", biz_type: "EXCHANGE", account_id: "ACC-1", status: "COMPLETED" };
      const fields = { ...completion, from_amount: "100.00", from_currency: "USD", to_currency: "HKD" };
      await ingest(db, [fromEnvelope({ id: "ev-fx-1", event_type: "FUNDING", payload: fields }, "stream")]);
      const read = () =>
        db.query<{ to_amount: string | null; fx_rate: string | null; detail_at: Date | null }>(
          "SELECT to_amount::text, fx_rate::text, detail_at FROM brokerdesk.money_movements WHERE client_request_id = 'FX-1'",
        );
      expect((await read()).rows[0]).toMatchObject({ to_amount: null, fx_rate: null, detail_at: null });

      // What another connection sees as soon as each of the snapshot's transactions has committed.
      const seen: Awaited<ReturnType<typeof read>>["rows"] = [];
      const watched: Engine = Object.assign(Object.create(db) as Engine, {
        transaction: async <T>(fn: Parameters<Engine["transaction"]>[0]) => {
          const out = (await db.transaction(fn)) as T;
          seen.push((await read()).rows[0]);
          return out;
        },
      });
      const seq = (await movementSeq(db, "FX_EXCHANGE", "FX-1"))!;
      const detail = { ...fields, to_amount: "780.00", fx_rate: "7.8" };
      const m = { kind: "FX_EXCHANGE" as const, client_request_id: "FX-1", account_id: "ACC-1", status: "COMPLETED", last_event_seq: seq };
      expect(await applyMovementSnapshot(watched, m, detail)).toBe("enriched");

      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ to_amount: "780.00", fx_rate: "7.8", detail_at: expect.any(Date) });
    });
  });
}
