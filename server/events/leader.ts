import "server-only";
import pg from "pg";
import type { Engine } from "@/server/db/engine";
import { advisoryUnlock, probeConnection, tryAdvisoryLock } from "./queries/stream";

/**
 * One active consumer per database: the leader holds a session-level advisory lock on a connection of its own. When
 * its process dies the server ends the session and frees the lock; a standby polling every `pollMs` takes over.
 * PGlite is one process's database, so there a process-wide flag stands in for the lock.
 */
const LOCK_KEY = "brokerdesk:event-consumer";

export interface Leadership {
  /** Resolves when leadership is lost (the lock's connection ended). */
  lost: Promise<void>;
  release(): Promise<void>;
}

const pgliteLeaders = new WeakSet<object>();

export async function tryLead(engine: Engine): Promise<Leadership | undefined> {
  if (engine.kind === "pglite") {
    if (pgliteLeaders.has(engine.driver)) return undefined;
    pgliteLeaders.add(engine.driver);
    let resolveLost!: () => void;
    const lost = new Promise<void>((r) => (resolveLost = r));
    return {
      lost,
      release: async () => {
        pgliteLeaders.delete(engine.driver);
        resolveLost();
      },
    };
  }
  const pool = engine.driver as pg.Pool;
  const client = new pg.Client({ ...(pool as unknown as { options: pg.ClientConfig }).options, keepAlive: true });
  let resolveLost!: () => void;
  const lost = new Promise<void>((r) => (resolveLost = r));
  client.on("error", () => resolveLost());
  client.on("end", () => resolveLost());
  try {
    await client.connect();
    if (!(await tryAdvisoryLock(client, LOCK_KEY))) {
      await client.end();
      return undefined;
    }
  } catch {
    await client.end().catch(() => undefined);
    return undefined;
  }
  // A cheap query now and then notices a dead connection even when nothing else is sent on it.
  const probe = setInterval(() => void probeConnection(client).catch(() => resolveLost()), 2_000);
  void lost.then(() => clearInterval(probe));
  return {
    lost,
    release: async () => {
      clearInterval(probe);
      await advisoryUnlock(client, LOCK_KEY).catch(() => undefined);
      await client.end().catch(() => undefined);
      resolveLost();
    },
  };
}
