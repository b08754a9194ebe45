import type pg from "pg";
import type { Queryable } from "@/server/db/engine";

/** What the load and the soak read of the desk's books and of the database's processes (SQL of scripts/load). */

/** Events the consumer stored from the stream so far (the newest seq of the table: its bigserial). */
export async function storedEvents(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: string | null }>("SELECT max(seq)::text AS n FROM brokerdesk.upstream_events");
  return Number(rows[0]?.n ?? 0);
}

/** The server processes serving a database (their CPU is the database's share of the load). */
export async function backendPids(db: Queryable, database: string): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [database]);
  return rows.map((r) => r.pid);
}

/** A database of the load's own on the server (a name it made: letters, digits and underscores). */
export async function createDatabase(admin: Pick<pg.Client, "query">, name: string): Promise<void> {
  await admin.query(`CREATE DATABASE ${name}`);
}

export async function dropDatabase(admin: Pick<pg.Client, "query">, name: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** Whether the consumer holds the lease and its stream is connected. */
export async function streamConnected(db: Pick<pg.Client, "query">): Promise<boolean> {
  const { rows } = await db.query<{ connected: boolean }>("SELECT connected FROM brokerdesk.event_stream");
  return rows[0]?.connected === true;
}
