import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";
import { checkout, isConnectionError, neverSent, retrying } from "./checkout";
import { preparedStatements } from "./pglite-statements";

// The sandbox is a program of its own that reaches the database only through this module (a unit test keeps it so).
export { surviveLostConnections } from "./unheard";

/**
 * One PostgreSQL engine behind one small interface: embedded PGlite (a directory, or memory) by default,
 * a PostgreSQL server through node-postgres when a URL is given. Both the app and the sandbox use it.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

export interface Tx extends Queryable {
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Engine extends Tx {
  readonly kind: "pglite" | "postgres";
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The driver object, for what the interface does not cover (LISTEN, the leader's own connection). */
  readonly driver: PGlite | pg.Pool;
}

export interface EngineOptions {
  /** A postgres:// URL: use the server. Otherwise PGlite. */
  url?: string;
  /** PGlite data directory; `memory://` or undefined for an in-memory database. */
  dataDir?: string;
  /** The cluster dump an in-memory PGlite database starts from (default PGLITE_TEMPLATE; none: initdb). */
  template?: string;
  poolSize?: number;
}

export async function openEngine(opts: EngineOptions): Promise<Engine> {
  return opts.url ? openPostgres(opts.url, opts.poolSize ?? 10) : openPglite(opts.dataDir, opts.template);
}

// pg_trgm: the sandbox's account search index (a PostgreSQL server ships it as a contrib extension).
const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * A fresh cluster (PGlite's dump of its data directory just after initdb) written to `file`. With PGLITE_TEMPLATE
 * naming such a file, an in-memory database is loaded from it instead of running initdb: in a new process 0.7 s and
 * 1 s of CPU instead of 2.4 s and 4 s. The test run makes one for all its files (tests/global-setup.ts).
 */
export async function writePgliteTemplate(file: string): Promise<void> {
  const db = await PGlite.create("memory://", { extensions: PGLITE_EXTENSIONS });
  try {
    fs.writeFileSync(file, Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer()));
  } finally {
    await db.close();
  }
}

/**
 * A cluster dump's bytes as the Blob PGlite loads a database from, read once a process. PGlite only reads them (it
 * copies each file into its own memory), so every database shares one buffer: Node's own Blob hands out a 40 MB dump
 * in chunks it then joins, which was a fifth of opening a database.
 */
class DumpBlob extends Blob {
  private static read = new Map<string, ArrayBuffer>();
  private readonly dump: ArrayBuffer;
  constructor(file: string) {
    super([]);
    let bytes = DumpBlob.read.get(file);
    if (!bytes) DumpBlob.read.set(file, (bytes = new Uint8Array(fs.readFileSync(file)).buffer));
    this.dump = bytes;
  }
  override get size() {
    return this.dump.byteLength;
  }
  override arrayBuffer() {
    return Promise.resolve(this.dump);
  }
}

/**
 * An in-memory database's buffer pool: 16 MB, not PostgreSQL's 128 MB. Its files are memory already, so the larger
 * pool only held second copies of their pages, and zeroing it at start was half of the CPU of opening a database (a
 * test run opens hundreds). A database in a directory keeps the default: there the pool stands in for disk reads.
 */
const IN_MEMORY_CONF = "shared_buffers = 16MB";

async function openPglite(dataDir?: string, templateFile?: string): Promise<Engine> {
  const inMemory = !dataDir || dataDir.startsWith("memory://");
  if (!inMemory) fs.mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const template = inMemory && (templateFile ?? process.env.PGLITE_TEMPLATE);
  const db = await PGlite.create(dataDir ?? "memory://", {
    extensions: PGLITE_EXTENSIONS,
    ...(inMemory ? { postgresqlconf: IN_MEMORY_CONF } : {}),
    ...(template ? { loadDataDir: new DumpBlob(template) } : {}),
  });
  const prepared = preparedStatements(db);
  // PGlite is one connection: serialise transactions so that interleaved callers never share one.
  let queue: Promise<unknown> = Promise.resolve();
  const engine: Engine = {
    kind: "pglite",
    driver: db,
    query: (sql, params) => prepared(sql, params),
    exec: async (sql) => {
      await db.exec(sql);
    },
    transaction: (fn) => {
      const run = queue.then(() =>
        db.transaction((tx) =>
          fn({
            query: (s, p) => prepared(s, p, tx),
            exec: async (s) => {
              await tx.exec(s);
            },
          }),
        ),
      );
      queue = run.catch(() => undefined);
      return run;
    },
    close: () => db.close(),
  };
  return engine;
}

/**
 * Parameterised statements run as named prepared statements: each connection parses and plans a statement text once,
 * not once per call (the server's parse and plan were a large share of a short query's time). Names are given to
 * the first MAX_PREPARED distinct texts; beyond that (texts built from many filter combinations) they run unnamed.
 */
const MAX_PREPARED = 2_000;
const statementNames = new Map<string, string>();
export function statement(sql: string, params?: unknown[]): pg.QueryConfig {
  if (!params?.length) return { text: sql };
  let name = statementNames.get(sql);
  if (!name && statementNames.size < MAX_PREPARED) statementNames.set(sql, (name = `s${statementNames.size + 1}`));
  return name ? { name, text: sql, values: params } : { text: sql, values: params };
}

async function openPostgres(url: string, max: number): Promise<Engine> {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on("error", () => undefined); // idle client errors surface on the next query instead of crashing
  /** One statement on a client of its own; run again only when it never reached the server (see checkout.ts). */
  const run = (config: pg.QueryConfig) =>
    retrying(async () => {
      const c = await checkout(pool);
      let failure: unknown;
      try {
        return await c.client.query(config);
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        c.release(failure);
      }
    }, neverSent);
  return {
    kind: "postgres",
    driver: pool,
    query: (sql, params) => run(statement(sql, params as unknown[])) as never,
    exec: async (sql) => {
      await run({ text: sql });
    },
    transaction: async (fn) => {
      // Until BEGIN is through, nothing of `fn` ran: a connection lost by then is tried again on a fresh one. Once
      // it runs, a lost connection fails the transaction (the server rolls it back; `fn` may have done more than SQL).
      const c = await retrying(async () => {
        const attempt = await checkout(pool);
        try {
          await attempt.client.query("BEGIN");
          return attempt;
        } catch (error) {
          attempt.release(error);
          throw error;
        }
      }, isConnectionError);
      const client = c.client;
      // One connection runs one statement at a time: statements a transaction's code sends together (Promise.all
      // over reads) wait their turn here, in the order sent, as node-postgres queued them itself before version 9.
      let turn: Promise<unknown> = Promise.resolve();
      const inTurn = <T>(send: () => Promise<T>): Promise<T> => {
        const sent = turn.then(send);
        turn = sent.catch(() => undefined);
        return sent;
      };
      let failure: unknown;
      try {
        const result = await fn({
          query: (s, p) => inTurn(() => client.query(statement(s, p as unknown[]))) as never,
          exec: async (s) => {
            await inTurn(() => client.query(s));
          },
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        failure = error;
        if (!c.broken()) await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        c.release(failure);
      }
    },
    close: () => pool.end(),
  };
}

interface ServerVersion {
  num: number;
  version: string;
}

/** The oldest PostgreSQL the desk runs on: the books' projection is one MERGE (server/books/queries/project.ts). */
export const MIN_SERVER_VERSION = { num: 150000, name: "15" };

/** Refuses, naming both versions, a server older than the desk needs: at start, not at the first event it projects. */
export function requireServerVersion(server: ServerVersion): void {
  if (server.num < MIN_SERVER_VERSION.num)
    throw new Error(`Brokerdesk needs PostgreSQL ${MIN_SERVER_VERSION.name} or later; this server runs PostgreSQL ${server.version}.`);
}

/**
 * Applies the `*.sql` files of a folder, in name order, once each, inside `schema`.
 * Idempotent and safe with several processes: one transaction under an advisory lock.
 */
export async function migrate(engine: Engine, schema: string, folder: string): Promise<string[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name ${schema}`);
  const files = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return engine.transaction(async (tx) => {
    const { rows } = await tx.query<ServerVersion>(
      "SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked, current_setting('server_version_num')::int AS num, current_setting('server_version') AS version",
      [`migrate:${schema}`],
    );
    requireServerVersion(rows[0]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set((await tx.query<{ name: string }>(`SELECT name FROM ${schema}.schema_migrations`)).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = fs.readFileSync(path.join(folder, file), "utf8");
      await tx.exec(`SET LOCAL search_path TO ${schema}, public;\n${sql}`);
      await tx.query(`INSERT INTO ${schema}.schema_migrations (name) VALUES ($1)`, [file]);
      applied.push(file);
    }
    return applied;
  });
}
