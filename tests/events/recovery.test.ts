import { afterAll, describe, expect, it } from "vitest";
import { engines } from "../sandbox/fixture";
import { setPrice } from "../sandbox/trading-helpers";
import { activity, expectInSync, lastSandboxEventId, mark, q, spawnConsumer as spawnProcess, type ConsumerProcess } from "./drill";
import { until } from "./helpers";
import { useStartedFixture } from "../helpers/started-fixture";

/**
 * Nothing lost, nothing twice: with the stream dropped, then silenced, and with the consumer killed and restarted
 * while orders and journals keep happening, the read model ends equal to the sandbox's state and every sandbox
 * event after the consumer's start is stored exactly once.
 */
describe.each(engines)("event consumer recovery ($name)", (te) => {
  const f = useStartedFixture(te, 60_000, (started) => setPrice(started.api, "KO", "60.00"));

  it("dropped, silenced, stopped and restarted: the read model ends equal to the sandbox and no event is stored twice", async () => {
    const fromId = await lastSandboxEventId(f);
    const since = await mark(f);
    const stream = async () =>
      (await q<{ connected: boolean; reconnects: number }>(f, "SELECT connected, reconnects FROM brokerdesk.event_stream"))[0];
    const before = (await stream()).reconnects;
    let consumer = f.consumer();
    await until(async () => (await stream()).connected, 20_000, "connected");
    await activity(f, 3);
    await f.api.call("POST", "/sandbox/events/drop", { body: {} });
    await activity(f, 3);
    // The drop counted and the stream back up: the next one counted is the silence's.
    const dropped = await until(
      async () => {
        const s = await stream();
        return s.connected && s.reconnects > before && s.reconnects;
      },
      20_000,
      "the drop's reconnect",
    );
    await f.api.call("POST", "/sandbox/events/silence", { body: { silent: true } });
    await activity(f, 3);
    // Past the consumer's silence limit (1.5 s) it gives the stream up and reconnects.
    await until(async () => (await stream()).reconnects > dropped, 20_000, "the silence's reconnect");
    await f.api.call("POST", "/sandbox/events/silence", { body: { silent: false } });
    await activity(f, 2);
    await consumer.stop();
    await activity(f, 3);
    consumer = f.consumer();
    await activity(f, 2);
    await expectInSync(f, fromId, since);
  }, 90_000);
});

const server = engines.find((e) => e.name === "postgres");
describe.skipIf(!server)("two consumer processes on one PostgreSQL server", () => {
  const f = useStartedFixture(server!, 60_000, (started) => setPrice(started.api, "KO", "60.00"));
  const children: ConsumerProcess[] = [];
  // Before the fixture closes (hooks after the tests run last-registered first).
  afterAll(() => {
    for (const c of children) c.signal("SIGKILL");
  });

  const spawnConsumer = () => {
    const p = spawnProcess(f, { LOG_LEVEL: "silent" });
    children.push(p);
    return p;
  };
  const stream = async () =>
    (
      await q<{ leader: string | null; connected: boolean; heartbeat_at: Date | null }>(
        f,
        "SELECT leader, connected, heartbeat_at FROM brokerdesk.event_stream",
      )
    )[0];

  it("only one consumes; SIGKILL the leader and the other takes over within 15 s; nothing lost", async () => {
    const fromId = await lastSandboxEventId(f);
    const since = await mark(f);
    const a = spawnConsumer();
    const first = await until(
      async () => {
        const s = await stream();
        return s.connected && s.leader;
      },
      30_000,
      "a leader",
    );
    const b = spawnConsumer();
    await activity(f, 3);
    // b stands by: the leader stays the same while both run.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await stream()).leader).toBe(first);
    expect(b.child.exitCode).toBeNull(); // still standing by
    const killed = Date.now();
    a.signal("SIGKILL");
    await activity(f, 2);
    const second = await until(
      async () => {
        const s = await stream();
        return s.connected && s.leader !== first && s.leader;
      },
      30_000,
      "takeover",
    );
    // The lease (6 s), the standby's poll (1 s) and its subscription, with room for a loaded machine: what the bound
    // rules out is a standby that waits for more than the lease.
    expect(Date.now() - killed).toBeLessThan(15_000);
    expect(second).not.toBe(first);
    await activity(f, 2);
    // The killed consumer comes back and stands by.
    spawnConsumer();
    await activity(f, 1);
    await expectInSync(f, fromId, since);
    b.signal("SIGKILL");
  }, 120_000);
});
