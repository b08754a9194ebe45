import "server-only";
import { EventEmitter } from "node:events";
import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Engine } from "@/server/db/engine";
import { logger } from "@/server/log";
import type { ChangeNotice } from "./channel";
import { CHANGES_CHANNEL, LISTEN_CHANGES } from "./queries";

export type { ChangeNotice };

/**
 * Change notices of this database, in this process: one LISTEN per process (a connection of its own on a
 * PostgreSQL server, the instance itself on PGlite), fanned out to every open live stream. NOTIFY reaches every app
 * instance on the same database, so each instance's browsers hear of changes whichever process projected them.
 */
type Listener = (n: ChangeNotice) => void;

interface Hub {
  bus: EventEmitter;
  started?: Promise<void>;
  /** When (performance.now()) this process began to listen, and last heard a notice of each topic. */
  listeningSince?: number;
  heard: Map<string, number>;
}
const hubs = new WeakMap<object, Hub>();

function parse(payload: string | undefined): ChangeNotice | undefined {
  try {
    const v = JSON.parse(payload ?? "") as Partial<ChangeNotice>;
    const m = v.market;
    return {
      topics: Array.isArray(v.topics) ? v.topics.map(String) : [],
      accounts: Array.isArray(v.accounts) ? v.accounts.map(String) : [],
      ...(m && typeof m.topic === "string" && typeof m.at === "number" ? { market: { topic: m.topic, at: m.at, data: m.data } } : {}),
    };
  } catch {
    return undefined;
  }
}

async function listenPostgres(pool: pg.Pool, hub: Hub): Promise<void> {
  /** One listening connection; once one was up, a lost one is replaced (a first that fails is the caller's). */
  const connect = async (again: boolean): Promise<void> => {
    const client = new pg.Client((pool as unknown as { options: pg.ClientConfig }).options);
    let up = again;
    let dead = false;
    const drop = () => {
      // Once: a dead client may report its end more than once (the statement's error, then the connection's).
      if (dead) return;
      dead = true;
      hub.listeningSince = undefined;
      client.removeAllListeners();
      client.on("error", () => undefined); // what it still emits, heard and dropped
      client.end().catch(() => undefined);
      // A lost listener reconnects; pages refetch on the stream notice this sends when it is back.
      if (up) setTimeout(() => void connect(true).catch(() => undefined), 1_000).unref();
    };
    client.on("error", drop);
    client.on("notification", (m) => {
      const n = parse(m.payload);
      if (n) hub.bus.emit("notice", n);
    });
    try {
      await client.connect();
      await client.query(LISTEN_CHANGES);
    } catch (error) {
      drop();
      throw error;
    }
    up = true;
    // Listening (again): what was sent while no connection listened is unknown to this process.
    hub.listeningSince = performance.now();
    hub.bus.emit("notice", { topics: ["stream"], accounts: [] });
  };
  await connect(false);
}

/** Subscribes to change notices; returns the unsubscribe function. */
export async function onChange(engine: Engine, listener: Listener): Promise<() => void> {
  let hub = hubs.get(engine.driver);
  if (!hub) {
    hub = { bus: new EventEmitter(), heard: new Map() };
    hub.bus.setMaxListeners(0);
    // First of all listeners, so that what a new listener is told of the past includes every notice before it.
    const heard = hub.heard;
    hub.bus.on("notice", (n: ChangeNotice) => {
      const at = performance.now();
      for (const topic of n.topics) heard.set(topic, at);
    });
    hubs.set(engine.driver, hub);
  }
  const h = hub;
  h.started ??= (
    engine.kind === "pglite"
      ? (engine.driver as PGlite)
          .listen(CHANGES_CHANNEL, (payload) => {
            const n = parse(payload);
            if (n) h.bus.emit("notice", n);
          })
          .then(() => {
            h.listeningSince = performance.now();
          })
      : listenPostgres(engine.driver as pg.Pool, h)
  ).catch((e) => {
    h.started = undefined;
    throw e;
  });
  await h.started;
  // Each listener on its own: one that throws must not keep the notice from the listeners after it.
  const isolated: Listener = (n) => {
    try {
      listener(n);
    } catch (err) {
      logger.error({ err }, "a change notice's listener failed");
    }
  };
  h.bus.on("notice", isolated);
  return () => h.bus.off("notice", isolated);
}

/**
 * What this process has heard so far, for a reader that has just subscribed and read its data some time before: how
 * long the process has listened, and how long ago it last heard each topic (only topics heard). Durations, not
 * times, so that a browser can set them against its own clock.
 */
export interface HeardSoFar {
  listeningMs: number;
  ago: Record<string, number>;
}

export function heardSoFar(engine: Engine): HeardSoFar {
  const hub = hubs.get(engine.driver);
  const now = performance.now();
  const ago: Record<string, number> = {};
  for (const [topic, at] of hub?.heard ?? []) ago[topic] = Math.floor(now - at);
  // Rounded down, both: a notice or a start told as more recent than it was makes a reader read again, no worse.
  return { listeningMs: hub?.listeningSince === undefined ? 0 : Math.floor(now - hub.listeningSince), ago };
}
