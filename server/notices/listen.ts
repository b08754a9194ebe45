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
    hub.bus.emit("notice", { topics: ["stream"], accounts: [] });
  };
  await connect(false);
}

/** Subscribes to change notices; returns the unsubscribe function. */
export async function onChange(engine: Engine, listener: Listener): Promise<() => void> {
  let hub = hubs.get(engine.driver);
  if (!hub) {
    hub = { bus: new EventEmitter() };
    hub.bus.setMaxListeners(0);
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
          .then(() => undefined)
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
