import { prepareAppDb, type AppDb } from "@/server/db";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import { createBrokerClient, type BrokerClient } from "@/server/broker/client";
import { startConsumer, type ConsumerHandle, type ConsumerOptions } from "@/server/events/consumer";
import { startEventService, type EventServiceOptions } from "@/server/events/service";
import { clock, US_CORE } from "../sandbox/trading-helpers";
import { SignedClient } from "../helpers/signed-fetch";
import type { TestEngine } from "../helpers/engines";
export { until } from "../helpers/until";

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
  /** The whole event service (consumer + detail calls, backfill, reconciliation) with a client of this sandbox; the activities sweep off unless asked for. */
  service(o?: Partial<EventServiceOptions>): ConsumerHandle;
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
  const consumers: ConsumerHandle[] = [];
  const client = createBrokerClient({
    kind: "sandbox",
    baseUrl: sb.url,
    appKey: "brokerdesk-demo-key",
    appSecret: "brokerdesk-demo-secret",
    algorithm: "HMAC-SHA256",
    pathStyle: "resource",
    timeoutMs: 5000,
    maxRetries: 0,
    rateLimits: { "order-query": { limit: 100, windowMs: 1000 } },
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
        engine: opened.engine,
        stream: streamOptions,
        client,
        silenceMs: 1500,
        backoffBaseMs: 50,
        backoffMaxMs: 300,
        leaderPollMs: 200,
        activities: false,
        ...o,
      });
      consumers.push(c);
      return c;
    },
    consumer: (o = {}) => {
      const c = startConsumer({
        engine: opened.engine,
        stream: streamOptions,
        silenceMs: 1500,
        backoffBaseMs: 50,
        backoffMaxMs: 300,
        leaderPollMs: 200,
        ...o,
      });
      consumers.push(c);
      return c;
    },
    close: async () => {
      await Promise.all(consumers.map((c) => c.stop()));
      await sb.close();
      await opened.close();
    },
  };
}
