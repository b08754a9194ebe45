import "server-only";
import { EventEmitter } from "node:events";
import type { Sandbox } from "../context";
import { SimMarket } from "./market";

/**
 * Per-sandbox runtime state of the trading side, kept beside (not inside) part 1's Sandbox object: the simulated
 * market, the market clock, the event bus that wakes gRPC streams after an outbox commit, stream controls, and a
 * mutex that runs one matching pass at a time (fills of one order never interleave).
 */
export interface StreamControl {
  /** Streams are ended with UNAVAILABLE when this counter moves. */
  dropEpoch: number;
  /** While true, streams send nothing (no events, no pings). */
  silent: boolean;
  /** New subscriptions are refused with UNAVAILABLE until this time (epoch ms): an outage. */
  refuseUntil: number;
}

export interface Trading {
  market: SimMarket;
  /** Market clock: a pinned instant, or an offset from the sandbox clock. */
  clock: { pinned?: Date; offsetMs: number };
  now(): Date;
  bus: EventEmitter;
  streams: StreamControl;
  pingMs: number;
  serial<T>(fn: () => Promise<T>): Promise<T>;
}

/** What pricing, fills and holds read of the runtime: the market alone (the seed's history passes one of its own). */
export type MarketView = Pick<Trading, "market">;

const states = new WeakMap<Sandbox, Trading>();

export function trading(sb: Sandbox): Trading {
  let t = states.get(sb);
  if (!t) {
    let queue: Promise<unknown> = Promise.resolve();
    const clock: Trading["clock"] = { offsetMs: 0 };
    const bus = new EventEmitter();
    bus.setMaxListeners(0);
    t = {
      market: new SimMarket(sb.config.marketSeed),
      clock,
      now: () => (clock.pinned ? new Date(clock.pinned) : new Date(sb.config.now().getTime() + clock.offsetMs)),
      bus,
      streams: { dropEpoch: 0, silent: false, refuseUntil: 0 },
      pingMs: 10_000,
      serial: (fn) => {
        const run = queue.then(fn);
        queue = run.catch(() => undefined);
        return run;
      },
    };
    states.set(sb, t);
  }
  return t;
}
