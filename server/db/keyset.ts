import "server-only";
import type { Queryable } from "./engine";

/**
 * Keyset paging in one sort order, for listings over the app's own tables. The order is a sort expression plus a
 * unique tiebreak column, both ascending or both descending, so "after the last row" is one row comparison
 * `(sort, tiebreak) > (a, b)` and a page never repeats or skips a row, whatever the order. The cursor is the last
 * row's pair, opaque to the browser (base64url JSON).
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

export function encodeCursor(key: readonly [unknown, unknown]): string {
  // bigint columns come back as strings or bigints depending on the engine; the comparison casts them back.
  return Buffer.from(JSON.stringify(key, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v))).toString("base64url");
}

/** The pair a cursor holds, or undefined for a cursor that is not one of ours (the first page, then). */
export function decodeCursor(cursor: string | undefined): [string | number, string | number] | undefined {
  if (!cursor) return undefined;
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const scalar = (v: unknown) => typeof v === "string" || typeof v === "number";
    return Array.isArray(key) && key.length === 2 && scalar(key[0]) && scalar(key[1]) ? [key[0], key[1]] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A cursor of a listing ordered by a time and an id: itself when it holds an ISO time and an id of `idPattern`,
 * else undefined (a hand-edited URL reads the first page).
 */
export function timeIdCursor(cursor: string | undefined, idPattern: RegExp): string | undefined {
  const key = decodeCursor(cursor);
  if (!key) return undefined;
  const [at, id] = key;
  return typeof at === "string" && !Number.isNaN(Date.parse(at)) && typeof id === "string" && idPattern.test(id) ? cursor : undefined;
}

export async function keysetPage<R>(q: Queryable, query: KeysetQuery): Promise<{ rows: R[]; nextCursor?: string }> {
  const where = [...query.where];
  const params = [...query.params];
  const after = decodeCursor(query.cursor);
  if (after) {
    params.push(after[0], after[1]);
    where.push(`(${query.sort}, ${query.tiebreak}) ${query.desc ? "<" : ">"} ($${params.length - 1}, $${params.length})`);
  }
  const dir = query.desc ? "DESC" : "ASC";
  params.push(query.limit + 1);
  const { rows } = await q.query<R & { keyset_sort: string | number; keyset_tiebreak: string | number }>(
    `SELECT ${query.columns}, ${query.sort} AS keyset_sort, ${query.tiebreak} AS keyset_tiebreak FROM ${query.from}
     ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY ${query.sort} ${dir}, ${query.tiebreak} ${dir} LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > query.limit && last ? encodeCursor([last.keyset_sort, last.keyset_tiebreak]) : undefined };
}
