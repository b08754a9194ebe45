import "server-only";
import { createHash } from "node:crypto";
import type { Queryable } from "./engine";

/**
 * Keyset paging in one sort order, for listings over the app's own tables. The order is a sort expression plus a
 * unique tiebreak column, both ascending or both descending, so "after the last row" is one row comparison
 * `(sort, tiebreak) > (a, b)` and a page never repeats or skips a row, whatever the order. The cursor is the last
 * row's pair, opaque to the browser (base64url JSON), behind a tag of the listing's order and of the pair's kinds:
 * a cursor that is not this listing's (another listing's or sort's, an older form, one edited by hand) reads the
 * first page, never a wrong page nor a failed cast.
 */
export interface KeysetQuery {
  /** `SELECT <columns> FROM <from>`. */
  columns: string;
  from: string;
  /** Conditions already numbered `$1…$n` against `params`. */
  where: string[];
  params: unknown[];
  /** The order: an expression that is never NULL (COALESCE it) and a unique column. */
  sort: string;
  tiebreak: string;
  desc: boolean;
  cursor?: string;
  limit: number;
}

/** A page size asked for by a caller, kept between 1 and `max` (`fallback` when none was asked for). */
export function pageLimit(asked: number | undefined, max = 200, fallback = 50): number {
  return Math.min(Math.max(asked ?? fallback, 1), max);
}

type Key = [string | number, string | number];
type Order = Pick<KeysetQuery, "from" | "sort" | "tiebreak" | "desc">;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/**
 * What a cursor value is as JSON holds it: an integer (bigint columns come as strings), a time (timestamps as ISO
 * strings), other text, a number; "x" for what no column of ours gives (a NUL, a date that does not exist).
 */
function kind(v: string | number): string {
  if (typeof v === "number") return Number.isFinite(v) ? "n" : "x";
  if (v.includes("\u0000")) return "x";
  if (/^-?\d{1,18}$/.test(v)) return "i";
  if (!ISO_TIME.test(v)) return "s";
  const at = Date.parse(v);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 19) === v.slice(0, 19) ? "t" : "x";
}

/** The listing's order and the key's kinds, hashed short: what a cursor of this listing carries. */
function tagOf(order: Order, key: Key): string {
  return createHash("sha256")
    .update([order.from, order.sort, order.tiebreak, order.desc ? "desc" : "asc", ...key.map(kind)].join("\n"))
    .digest("base64url")
    .slice(0, 8);
}

/** A row's sort and tiebreak values as JSON keeps them: bigints and times as strings, as the comparison casts back. */
function jsonKey(sort: unknown, tiebreak: unknown): Key {
  const json = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === "bigint" ? v.toString() : (v as string | number));
  return [json(sort), json(tiebreak)];
}

function encodeCursor(order: Order, key: Key): string {
  return Buffer.from(JSON.stringify([tagOf(order, key), ...key])).toString("base64url");
}

/** A cursor's tag and pair as written, or undefined for what is not a cursor of ours at all. */
function readCursor(cursor: string | undefined): { tag: string; key: Key } | undefined {
  if (!cursor) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const scalar = (x: unknown): x is string | number => typeof x === "string" || typeof x === "number";
    if (!Array.isArray(v) || v.length !== 3 || typeof v[0] !== "string" || !scalar(v[1]) || !scalar(v[2])) return undefined;
    return { tag: v[0], key: [v[1], v[2]] };
  } catch {
    return undefined;
  }
}

/** The pair of a cursor this listing wrote (its order, values of the kinds it wrote), else undefined: the first page. */
function decodeCursor(order: Order, cursor: string | undefined): Key | undefined {
  const read = readCursor(cursor);
  if (!read || read.key.some((v) => kind(v) === "x")) return undefined;
  return read.tag === tagOf(order, read.key) ? read.key : undefined;
}

/**
 * A cursor of a listing ordered by a time and an id: itself when it holds an ISO time and an id of `idPattern`,
 * else undefined (a hand-edited URL reads the first page).
 */
export function timeIdCursor(cursor: string | undefined, idPattern: RegExp): string | undefined {
  const read = readCursor(cursor);
  if (!read) return undefined;
  const [at, id] = read.key;
  return typeof at === "string" && kind(at) === "t" && typeof id === "string" && idPattern.test(id) ? cursor : undefined;
}

/** PostgreSQL's data exceptions (SQLSTATE class 22: a value its type refuses), as both engines report them. */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("22");
}

export async function keysetPage<R>(q: Queryable, query: KeysetQuery): Promise<{ rows: R[]; nextCursor?: string }> {
  const read = (after: Key | undefined) => {
    const where = [...query.where];
    const params = [...query.params];
    if (after) {
      params.push(after[0], after[1]);
      where.push(`(${query.sort}, ${query.tiebreak}) ${query.desc ? "<" : ">"} ($${params.length - 1}, $${params.length})`);
    }
    const dir = query.desc ? "DESC" : "ASC";
    params.push(query.limit + 1);
    return q.query<R & { keyset_sort: unknown; keyset_tiebreak: unknown }>(
      `SELECT ${query.columns}, ${query.sort} AS keyset_sort, ${query.tiebreak} AS keyset_tiebreak FROM ${query.from}
       ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY ${query.sort} ${dir}, ${query.tiebreak} ${dir} LIMIT $${params.length}`,
      params,
    );
  };
  const after = decodeCursor(query, query.cursor);
  let result: Awaited<ReturnType<typeof read>>;
  try {
    result = await read(after);
  } catch (error) {
    // A cursor made to pass the tag with values its columns refuse (out of range, say): the first page, like any
    // cursor that is not this listing's. A failure of the listing's own filter fails again and goes up.
    if (!after || !isDataException(error)) throw error;
    result = await read(undefined);
  }
  const { rows } = result;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > query.limit && last ? encodeCursor(query, jsonKey(last.keyset_sort, last.keyset_tiebreak)) : undefined,
  };
}
