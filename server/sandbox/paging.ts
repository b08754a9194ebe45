import "server-only";
import type { OpContext } from "./context";
import { illegal } from "./errors";

/**
 * List conventions (docs/sandbox-api.md):
 * - legacy paths: bare JSON array; cursor `last_<entity>_id` = id of the last item of the previous page;
 * - resource paths: {"data":[...],"pagination_key":"..."}; pagination_key is absent on the last page.
 * page_size defaults to 10, range 1–200. Callers fetch page_size + 1 rows to learn whether a next page exists.
 */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 200;

export function pageSize(query: Record<string, string>, max = MAX_PAGE_SIZE): number {
  const raw = query.page_size;
  if (raw === undefined || raw === "") return DEFAULT_PAGE_SIZE;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw illegal(`page_size must be an integer from 1 to ${max}.`);
  }
  return Number(raw);
}

const encodeKey = (id: string) => Buffer.from(`v1:${id}`).toString("base64url");
function decodeKey(key: string): string {
  const text = Buffer.from(key, "base64url").toString();
  if (!text.startsWith("v1:")) throw illegal("pagination_key is invalid.");
  return text.slice(3);
}

/** The id after which the page starts, from `last_<entity>_id` (legacy) or `pagination_key` (resource). */
export function cursorOf(ctx: OpContext, legacyParam: string): string | undefined {
  if (ctx.style === "resource") {
    const key = ctx.query.pagination_key;
    return key ? decodeKey(key) : undefined;
  }
  return ctx.query[legacyParam] || undefined;
}

/** Shapes one page. `rows` holds up to size + 1 items; the extra one only signals that more exist. */
export function page<T>(ctx: OpContext, rows: T[], size: number, idOf: (row: T) => string): unknown {
  const items = rows.slice(0, size);
  if (ctx.style === "legacy") return items;
  const more = rows.length > size && items.length > 0;
  return more ? { data: items, pagination_key: encodeKey(idOf(items[items.length - 1])) } : { data: items };
}

/** A response body already serialised (by the database): the router sends it as it is. */
export class JsonText {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** `page` for items already serialised: `rows` of { id, json } (up to size + 1), the same shapes as text. */
export function pageJson(ctx: OpContext, rows: { id: string; json: string }[], size: number): JsonText {
  const items = rows.slice(0, size);
  const array = `[${items.map((r) => r.json).join(",")}]`;
  if (ctx.style === "legacy") return new JsonText(array);
  const more = rows.length > size && items.length > 0;
  return new JsonText(
    more ? `{"data":${array},"pagination_key":${JSON.stringify(encodeKey(items[items.length - 1].id))}}` : `{"data":${array}}`,
  );
}

/** Unpaged lists (positions, calendar): bare array on legacy paths, {"data":[...]} on resource paths. */
export function list<T>(ctx: OpContext, items: T[]): unknown {
  return ctx.style === "legacy" ? items : { data: items };
}
