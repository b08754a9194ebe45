import "server-only";
import { z } from "zod";
import type { Page } from "./schemas/common";
import type { PathStyle } from "@/server/wire/operations";
import { parseResponse } from "./parse";

/**
 * The upstream's cursor styles behind one `Page<T>` with an opaque `nextCursor`:
 * - legacy paths: bare JSON array + `page_size` + `last_<entity>_id` (the last item's id);
 * - resource paths: `{"data":[…],"pagination_key":"…"}` (key absent on the last page);
 * - option contracts: bare array + `last_instrument_id` in both styles.
 */
export interface ListSpec<T> {
  /** Query parameter that carries the last item's id, e.g. "last_client_order_id". */
  lastIdParam: string;
  idOf: (item: T) => string;
  /** true when this operation pages by last id in both styles (option contracts). */
  lastIdOnly?: boolean;
}

export const DEFAULT_PAGE_SIZE = 10;

/** Query parameters for the page after `cursor`. */
export function cursorQuery(spec: ListSpec<unknown>, style: PathStyle, cursor?: string): Record<string, string> {
  if (!cursor) return {};
  return style === "resource" && !spec.lastIdOnly ? { pagination_key: cursor } : { [spec.lastIdParam]: cursor };
}

const wrapped = z.object({ data: z.array(z.unknown()).nullish(), pagination_key: z.string().nullish() });

/** Accepts either shape whatever the style, so an upstream that mixes them still pages correctly. */
export function parsePage<S extends z.ZodType>(
  itemSchema: S,
  spec: ListSpec<z.output<S>>,
  data: unknown,
  pageSize: number | undefined,
  operation: string,
  requestId?: string,
): Page<z.output<S>> {
  const list = z.array(itemSchema);
  if (Array.isArray(data) || data === null) {
    const items = parseResponse(list, data ?? [], operation, requestId);
    const full = items.length > 0 && items.length >= (pageSize ?? DEFAULT_PAGE_SIZE);
    return { items, nextCursor: full ? spec.idOf(items[items.length - 1]) : undefined };
  }
  const w = parseResponse(wrapped, data, operation, requestId);
  const items = parseResponse(list, w.data ?? [], operation, requestId);
  if (w.pagination_key) return { items, nextCursor: w.pagination_key };
  if (spec.lastIdOnly) {
    const full = items.length > 0 && items.length >= (pageSize ?? DEFAULT_PAGE_SIZE);
    return { items, nextCursor: full ? spec.idOf(items[items.length - 1]) : undefined };
  }
  return { items };
}

/** Every item of every page: `for await (const o of paginate((cursor) => client.listOpenOrders({ account_id, cursor })))`. */
export async function* paginate<T>(fetchPage: (cursor?: string) => Promise<Page<T>>, opts: { maxPages?: number } = {}): AsyncGenerator<T> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (let n = 0; n < (opts.maxPages ?? 10_000); n++) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (!page.nextCursor || seen.has(page.nextCursor)) return; // a repeated cursor would loop forever
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}

export async function collectAll<T>(
  fetchPage: (cursor?: string) => Promise<Page<T>>,
  opts: { maxItems?: number; maxPages?: number } = {},
): Promise<T[]> {
  const out: T[] = [];
  for await (const item of paginate(fetchPage, opts)) {
    out.push(item);
    if (opts.maxItems && out.length >= opts.maxItems) break;
  }
  return out;
}
