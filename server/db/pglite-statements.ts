import "server-only";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { serialize } from "pg-protocol";

/**
 * PGlite's statements as named prepared statements, as the server's are (engine.ts `statement`). PGlite's own
 * `query` parses, describes and plans its text on every call, in five round trips into the database: on the desk's
 * short statements that was four fifths of a statement's time (a primary-key lookup 0.34 ms, prepared 0.07 ms). Here
 * a text is parsed and described once per database (its parameter types and its row description kept), and each
 * call is one round trip: Bind, Execute, Sync. PostgreSQL then plans a statement once it sees a generic plan will do.
 *
 * Values are serialised and rows parsed with the database's own type serialisers and parsers, as `query` does.
 * Errors are PGlite's (a `DatabaseError` with the SQLSTATE `code`); the Sync in the same message ends the failed
 * exchange, so the connection takes the next statement (inside a transaction, the transaction is failed as before).
 */

/** The first distinct texts get a name; beyond them (texts built from many filter combinations) PGlite's `query`. */
const MAX_PREPARED = 2_000;

interface Prepared {
  name: string;
  paramTypes: number[];
  fields: { name: string; dataTypeID: number }[];
}

/** The messages of PGlite's answer that a statement's result is read from. */
type Message =
  | { name: "parameterDescription"; dataTypeIDs: number[] }
  | { name: "rowDescription"; fields: { name: string; dataTypeID: number }[] }
  | { name: "dataRow"; fields: (string | null)[] }
  | { name: string };

export type RunStatement = <T>(sql: string, params: unknown[] | undefined, tx?: Transaction) => Promise<{ rows: T[] }>;

/**
 * Runs a statement on `db` within its locks: outside a transaction it waits for the one running (as `query` does);
 * inside one (`tx`: called from the transaction's callback, which holds the transaction lock) it takes only the
 * statement lock.
 */
export function preparedStatements(db: PGlite): RunStatement {
  const prepared = new Map<string, Prepared>();

  const send = async (message: Buffer, inTransaction: boolean): Promise<Message[]> =>
    (await db.execProtocol(message, { syncToFs: !inTransaction })).messages as Message[];

  async function prepare(sql: string, inTransaction: boolean): Promise<Prepared> {
    const name = `s${prepared.size + 1}`;
    const messages = await send(
      Buffer.concat([serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync()]),
      inTransaction,
    );
    const params = messages.find((m) => m.name === "parameterDescription") as { dataTypeIDs: number[] } | undefined;
    const row = messages.find((m) => m.name === "rowDescription") as { fields: Prepared["fields"] } | undefined;
    const statement = {
      name,
      paramTypes: params?.dataTypeIDs ?? [],
      fields: (row?.fields ?? []).map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    };
    prepared.set(sql, statement);
    return statement;
  }

  async function execute<T>(sql: string, params: unknown[], inTransaction: boolean): Promise<{ rows: T[] }> {
    const statement = prepared.get(sql) ?? (await prepare(sql, inTransaction));
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[statement.paramTypes[i]];
      return serializer ? (serializer(value) as string) : String(value);
    });
    const messages = await send(
      Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]),
      inTransaction,
    );
    const rows: T[] = [];
    for (const m of messages) {
      if (m.name !== "dataRow") continue;
      const row: Record<string, unknown> = {};
      (m as { fields: (string | null)[] }).fields.forEach((text, i) => {
        const field = statement.fields[i];
        const parser = db.parsers[field.dataTypeID];
        row[field.name] = text === null ? null : parser ? parser(text, field.dataTypeID) : text;
      });
      rows.push(row as T);
    }
    return { rows };
  }

  return async (sql, params = [], tx) => {
    if (!prepared.has(sql) && prepared.size >= MAX_PREPARED) return (await (tx ?? db).query(sql, params)) as never;
    const run = () => db.runExclusive(() => execute(sql, params, !!tx));
    return (await (tx ? run() : db._runExclusiveTransaction(run))) as never;
  };
}
