import "server-only";
import { startSandbox, type RunningSandbox } from "@/server/sandbox";
import { seedAccountId } from "@/server/sandbox/seed/accounts";
import { openSubscription } from "@/server/wire/events/subscribe";
import { EVENT } from "@/server/sandbox/trading/events/grpc-server";
import { isEventMessage } from "@/server/wire/events/proto";
import { emit, type OutboxEvent } from "@/server/sandbox/trading/events/outbox";
import { trading } from "@/server/sandbox/trading/state";
import { usStockOrder } from "../tests/helpers/orders";
import { KEY, SECRET, signedPost } from "./bench/load";

/**
 * Trading part of `npm run bench:sandbox` (called by scripts/bench-sandbox.ts for each engine):
 * - signed order placements per second and p50/p99 latency at 16 concurrent clients (one account each, resting
 *   LIMIT orders so every call runs validation, buying power, hold, insert and a matching check);
 * - events per second delivered to 10 gRPC subscribers (events written to the outbox in batches of 500, counted
 *   when every subscriber has received all of them).
 * Loopback only, bounded loops.
 */
const CLIENTS = 16;
const SUBSCRIBERS = 10;
// ACTIVE, funded seed accounts (see server/sandbox/seed/accounts.ts STATUS_PLAN).
const ACTIVE = [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 13, 15, 16, 18, 19, 20].map(seedAccountId);

async function call(sb: RunningSandbox, token: string, p: string, body: unknown) {
  const res = await signedPost(sb.url, p, body, { "x-version": "v3", "x-access-token": token });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function placements(sb: RunningSandbox, token: string, total: number) {
  const run = Date.now().toString(36);
  const place = (client: number, i: number) =>
    call(sb, token, "/broker/orders/place", {
      account_id: ACTIVE[client],
      new_orders: [
        usStockOrder({
          client_order_id: `b${run}-${client}-${i}`,
          symbol: "KO",
          time_in_force: "GTC",
          limit_price: "1.00",
          support_trading_session: "ALL",
        }),
      ],
    });
  for (let c = 0; c < CLIENTS; c += 1) await place(c, -1); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await place(client, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  return {
    scenario: `place-order (${CLIENTS} clients)`,
    count: total,
    "per s": (total / seconds).toFixed(0),
    "p50 ms": pct(0.5),
    "p99 ms": pct(0.99),
  };
}

async function delivery(sb: RunningSandbox, total: number) {
  const counts = new Array<number>(SUBSCRIBERS).fill(0);
  const streams: { close(): void }[] = [];
  const ready: Promise<void>[] = [];
  for (let s = 0; s < SUBSCRIBERS; s += 1) {
    const sub = openSubscription({
      target: `127.0.0.1:${sb.grpcPort}`,
      appKey: KEY,
      appSecret: SECRET,
      payload: { event_types: ["MASTER_DATA"] },
    });
    streams.push(sub);
    ready.push(
      new Promise((resolve) =>
        sub.call.on("data", (m) => {
          if (m.eventType === EVENT.SubscribeSuccess) resolve();
          if (isEventMessage(m.eventType)) counts[s] += 1;
        }),
      ),
    );
    sub.call.on("error", () => undefined);
  }
  await Promise.all(ready);
  const t = trading(sb.sandbox);
  const started = performance.now();
  for (let i = 0; i < total; i += 500) {
    const batch: OutboxEvent[] = Array.from({ length: Math.min(500, total - i) }, (_, k) => ({
      event_type: "MASTER_DATA",
      payload: { biz_type: "CALENDAR_UPDATE", n: i + k },
    }));
    await sb.engine.transaction((tx) => emit(tx, batch, new Date()));
    t.bus.emit("events");
  }
  const deadline = Date.now() + 120_000;
  while (counts.some((c) => c < total) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const seconds = (performance.now() - started) / 1000;
  for (const c of streams) c.close();
  const delivered = counts.reduce((a, b) => a + b, 0);
  return {
    scenario: `event delivery (${SUBSCRIBERS} subscribers)`,
    count: delivered,
    "per s": (delivered / seconds).toFixed(0),
    "p50 ms": "-",
    "p99 ms": "-",
  };
}

/** Runs both trading scenarios on a fresh sandbox over `engine`. */
export async function benchTrading(label: string, engine: { url?: string; dataDir?: string }, requests: number): Promise<void> {
  const sb = await startSandbox({ port: 0, engine, tokenRateLimit: 1000, grpcPort: 0 });
  try {
    const { token } = await call(sb, "", "/openapi/auth/token/create", {});
    const rows = [await placements(sb, token, requests), await delivery(sb, Math.max(1000, requests * 2))];
    console.log(`\n${label}: trading (HMAC-SHA256 signed orders; gRPC events)`);
    console.table(rows);
  } finally {
    await sb.close();
  }
}
