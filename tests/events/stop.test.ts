import { describe, expect, it } from "vitest";
import type { Engine } from "@/server/db/engine";
import { engines } from "../sandbox/fixture";
import { startEventsFixture, until } from "./helpers";

/**
 * Stopping the event consumer (server/events/consumer.ts) at any point of a stream's start: the subscription it opens
 * after the stop (or after losing its lease) ends at once, however alive the upstream keeps it with pings.
 */
describe.each(engines)("the consumer stopped while a stream starts ($name)", (te) => {
  it("stopped while it reads its resume point, it stops: the stream it then opens is ended, not kept alive by pings", async () => {
    const f = await startEventsFixture(te);
    try {
      // The read of the resume point held until the stop has been asked for.
      let reached!: () => void;
      const atResumePoint = new Promise<void>((r) => (reached = r));
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const real = f.db.engine;
      const engine: Engine = {
        ...real,
        query: (async (sql: string, params?: unknown[]) => {
          if (sql.includes("SELECT last_event_id FROM brokerdesk.event_stream")) {
            reached();
            await held;
          }
          return real.query(sql, params);
        }) as Engine["query"],
      };
      const consumer = f.consumer({ engine });
      await atResumePoint;
      let stopped = false;
      void consumer.stop().then(() => (stopped = true));
      release();
      // The sandbox pings every 200 ms and the consumer's silence limit is 1.5 s: a stream left open never ends.
      await until(() => stopped, 15_000, "the consumer to stop");
      expect(consumer.isLeader()).toBe(false);
    } finally {
      await f.close();
    }
  });
});
