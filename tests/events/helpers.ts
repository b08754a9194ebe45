import { afterAll, beforeAll } from "vitest";
import { setBrokerForTests } from "@/server/broker";
import { prepareAppDb, setDbForTests, type AppDb } from "@/server/db";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import type { BrokerClient } from "@/server/broker/client";
import { startConsumer, type ConsumerHandle, type ConsumerOptions } from "@/server/events/consumer";
import { startEventService, type EventServiceOptions } from "@/server/events/service";
import type { JobDeps } from "@/server/jobs/definitions";
import { startJobs, type JobsHandle, type StartJobsOptions } from "@/server/jobs/runtime";
import { clock, US_CORE } from "../sandbox/trading-helpers";
import { SignedClient } from "../helpers/signed-fetch";
import type { TestEngine } from "../helpers/engines";
import { sandboxBroker } from "../helpers/sandbox-broker";
import { until } from "../helpers/until";
export { until };

/**
 * A started sandbox (with its gRPC event stream) and the app's database on one fresh database of an engine: the
 * sandbox in schema `sandbox`, the desk's read model in `brokerdesk`, as `npm start` lays them out.
 */
export interface EventsFixture {
  sb: RunningSandbox;
  db: AppDb;
  api: SignedClient;
  url?: string;
  consumer(o?: Partial<ConsumerOptions>): ConsumerHandle;
  /** The event service (consumer + reconnect requests). */
  service(o?: Partial<EventServiceOptions>): ConsumerHandle;
  /** The job system (server/jobs) with a client of this sandbox, polling often; `deps` overrides the configuration. */
  jobs(o?: Partial<Omit<StartJobsOptions, "deps">> & { deps?: Partial<JobDeps> }): Promise<JobsHandle>;
  client: BrokerClient;
  streamOptions: ConsumerOptions["stream"];
  close(): Promise<void>;
}

export async function startEventsFixture(te: TestEngine): Promise<EventsFixture> {
  const opened = await te.open();
  const sb = await startSandbox({ port: 0, grpcPort: 0, pingMs: 200, engine: opened.engine, tokenRateLimit: 1000 });
  const db = await prepareAppDb(opened.engine);
  const api = new SignedClient(sb.url, undefined, undefined, "HMAC-SHA256");
  await api.login();
  await clock(api, US_CORE);
  const streamOptions = { target: `127.0.0.1:${sb.grpcPort}`, appKey: "brokerdesk-demo-key", appSecret: "brokerdesk-demo-secret" };
  // The consumer's options with short timings, so silence, reconnects and leadership change within a test.
  const consumerOptions = {
    engine: opened.engine,
    stream: streamOptions,
    silenceMs: 1500,
    backoffBaseMs: 50,
    backoffMaxMs: 300,
    leaderPollMs: 200,
  };
  const consumers: ConsumerHandle[] = [];
  const jobSystems: JobsHandle[] = [];
  // The client's budgets raised: tests assert what is sent, not the production pace (a 500-row bulk batch at 10
  // journals a second would be 50 s of waiting per engine; a reconciliation reads two assets calls per account).
  const client = sandboxBroker(sb.url, {
    timeoutMs: 5000,
    rateLimits: {
      "order-query": { limit: 100, windowMs: 1000 },
      journal: { limit: 100, windowMs: 1000 },
      assets: { limit: 100, windowMs: 1000 },
    },
  });
  return {
    sb,
    db,
    api,
    url: opened.url,
    streamOptions,
    client,
    service: (o = {}) => {
      const c = startEventService({
        ...consumerOptions,
        requestPollMs: 200,
        ...o,
      });
      consumers.push(c);
      return c;
    },
    jobs: async ({ deps, ...o } = {}) => {
      const handle = await startJobs({
        pollingIntervalSeconds: 0.5,
        ...o,
        deps: {
          db,
          client,
          log: () => undefined,
          backfillDays: 30,
          reconcileAfterMs: 300_000,
          reconcileIntervalMs: 3_600_000,
          activities: { intervalMs: 3_600_000, rate: 200, settleMs: 0 },
          ...deps,
        },
      });
      jobSystems.push(handle);
      return handle;
    },
    consumer: (o = {}) => {
      const c = startConsumer({
        ...consumerOptions,
        ...o,
      });
      consumers.push(c);
      return c;
    },
    close: async () => {
      await Promise.all(consumers.map((c) => c.stop()));
      await Promise.all(jobSystems.map((j) => j.stop()));
      await sb.close();
      await opened.close();
    },
  };
}

/**
 * One events fixture for the describe block, made the process's database and upstream client (what server actions,
 * routes and tools read through getDb() and broker()); answers a getter of it.
 */
export function useProcessFixture(te: TestEngine): () => EventsFixture {
  let f: EventsFixture | undefined;
  beforeAll(async () => {
    f = await startEventsFixture(te);
    setDbForTests(f.db);
    setBrokerForTests(f.client);
  }, 120_000);
  afterAll(async () => {
    setBrokerForTests(undefined);
    setDbForTests(undefined);
    await f?.close();
  });
  return () => f!;
}

/** Waits until the fixture's consumer has subscribed to the sandbox's event stream. */
export const streamConnected = (f: EventsFixture) =>
  until(
    async () => (await f.db.engine.query<{ connected: boolean }>("SELECT connected FROM brokerdesk.event_stream")).rows[0]?.connected,
    20_000,
    "the event stream",
  );
