import "server-only";
import type { Hono } from "hono";
import type { HonoEnv, Sandbox } from "../context";
import { illegal } from "../errors";
import { parseBody } from "../router";
import { startEventServer } from "./events/grpc-server";
import { emit, EVENT_TYPES, lastEventId, type EventType } from "./events/outbox";
import { marketRoutes } from "./market-routes";
import { runMatching } from "./matching";
import { orderRoutes } from "./order-routes";
import { trading } from "./state";

/**
 * Part 2 of the sandbox: the simulated market, orders, executions, option exercise, and the gRPC event stream.
 * Routes come from the OPERATIONS table through route(); fills post through ../ledger.ts.
 */
export function tradingRoutes(app: Hono<HonoEnv>, sb: Sandbox): void {
  const t = trading(sb);
  // Wraps part 1's POST /sandbox/reset (registered later; it seeds the trading tables again too): no matching pass
  // runs meanwhile, and the market reloads its prices.
  app.use("/sandbox/reset", async (c, next) => {
    await t.serial(() => next());
    if (c.res.status === 200) t.market.invalidate();
  });
  marketRoutes(app, sb);
  orderRoutes(app, sb);
  const post = (path: string, fn: (b: Record<string, unknown>) => Promise<unknown>) =>
    app.post(path, async (c) => c.json((await fn(parseBody(c.get("rawBody")))) as object));

  // Stream controls, so clients' recovery can be tested: drop ends every open stream with UNAVAILABLE (and, with
  // refuse_ms, refuses new subscriptions with UNAVAILABLE for that long: an outage); silent stops events and pings
  // until turned off; ping_ms changes the ping period of streams opened afterwards.
  post("/sandbox/events/drop", async (b) => {
    const refuse = b.refuse_ms === undefined ? 0 : Number(b.refuse_ms);
    if (!Number.isInteger(refuse) || refuse < 0 || refuse > 3_600_000) throw illegal("refuse_ms must be 0 to 3600000.");
    t.streams.refuseUntil = Date.now() + refuse;
    return { dropped: (t.streams.dropEpoch += 1), refuse_until: new Date(t.streams.refuseUntil).toISOString() };
  });
  post("/sandbox/events/silence", async (b) => {
    if (typeof b.silent !== "boolean") throw illegal("silent must be true or false.");
    t.streams.silent = b.silent;
    if (!b.silent) t.bus.emit("events");
    return { silent: t.streams.silent };
  });
  post("/sandbox/events/ping", async (b) => {
    const ms = Number(b.ping_ms);
    if (!Number.isInteger(ms) || ms < 50 || ms > 600_000) throw illegal("ping_ms must be 50 to 600000.");
    t.pingMs = ms;
    return { ping_ms: ms };
  });
  // Publishes an event of a category the sandbox has no state change for (instrument, corporate action, master data),
  // or, with `events: [{event_type, account_id?, payload}, …]` (at most 5,000), many at once (loads for benchmarks).
  post("/sandbox/events/publish", async (b) => {
    const list = Array.isArray(b.events) ? (b.events as Record<string, unknown>[]) : [b];
    if (!list.length || list.length > 5_000) throw illegal("events must hold 1 to 5000 events.");
    for (const e of list) {
      if (!(EVENT_TYPES as readonly string[]).includes(String(e?.event_type)))
        throw illegal(`event_type must be one of ${EVENT_TYPES.join(", ")}.`);
      if (typeof e.payload !== "object" || e.payload === null || Array.isArray(e.payload)) throw illegal("payload must be an object.");
    }
    const at = t.now();
    await sb.engine.transaction((tx) =>
      emit(
        tx,
        list.map((e) => ({
          event_type: e.event_type as EventType,
          account_id: typeof e.account_id === "string" ? e.account_id : null,
          payload: e.payload as Record<string, unknown>,
        })),
        at,
      ),
    );
    t.bus.emit("events");
    return { last_event_id: await lastEventId(sb.engine) };
  });
  app.get("/sandbox/events/last-id", async (c) => c.json({ last_event_id: await lastEventId(sb.engine) }));
}

export interface TradingRuntimeOptions {
  host: string;
  /** gRPC port: 0 = random; null or absent = no gRPC server (main.ts passes env SANDBOX_GRPC_PORT, default 4101). */
  grpcPort?: number | null;
  /** Random-walk step + matching period in ms; 0 or absent = only on control calls (tests); main.ts uses 1000. */
  marketIntervalMs?: number;
  pingMs?: number;
}

/** Starts what runs beside the HTTP app: the market timer and the gRPC event server. Never blocks the HTTP sandbox. */
export async function startTradingRuntime(sb: Sandbox, o: TradingRuntimeOptions, log: { error(obj: unknown, msg?: string): void }) {
  const t = trading(sb);
  if (o.pingMs) t.pingMs = o.pingMs;
  const interval = o.marketIntervalMs ?? 0;
  let timer: NodeJS.Timeout | undefined;
  if (interval > 0) {
    let busy = false;
    timer = setInterval(() => {
      if (busy || t.market.paused) return;
      busy = true;
      t.market.step(t.now());
      runMatching(sb)
        .catch((err) => log.error({ err }, "sandbox matching pass failed"))
        .finally(() => (busy = false));
    }, interval);
    timer.unref();
  }
  const port = o.grpcPort ?? null;
  let grpc: Awaited<ReturnType<typeof startEventServer>> | undefined;
  if (port !== null) {
    try {
      grpc = await startEventServer(sb, o.host, port);
    } catch (err) {
      log.error({ err, port }, "sandbox gRPC event server did not start; HTTP continues without it");
    }
  }
  return {
    grpcPort: grpc?.port,
    close: async () => {
      if (timer) clearInterval(timer);
      await grpc?.close();
      // Let a running matching pass finish before the engine closes.
      await t.serial(async () => undefined);
    },
  };
}
