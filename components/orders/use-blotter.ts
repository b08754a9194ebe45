"use client";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { orderListParams, type OrderChanges, type OrderListParams, type OrderPage } from "@/lib/schemas/order-list";
import { appendPage, mergeChanges, showFresh, type BlotterRows } from "./blotter-merge";

const FLASH_MS = 2_500;

/** Query keys under "orders": the live channel makes them stale when an order changes (LIVE_TOPIC_QUERY_ROOTS). */
export const orderKeys = {
  changes: (query: string) => ["orders", "blotter", "changes", query] as const,
  detail: (id: string) => ["orders", "detail", id] as const,
};

const pageUrl = (state: OrderListParams, cursor?: string) => `/api/orders${orderListParams.apiQuery({ ...state, cursor })}`;

/**
 * The blotter's rows: the first page from the server render, further keyset pages as the reader scrolls
 * (`loadMore`), and live changes since the first page's watermark, merged in place (blotter-merge.ts). A filter
 * change reads the first page again.
 */
export function useBlotter(state: OrderListParams, initial: { query: string; page: OrderPage }) {
  const query = orderListParams.apiQuery({ ...state, cursor: undefined });
  const [data, setData] = useState<BlotterRows & { query: string; cursor?: string; error?: string }>(() =>
    fromPage(initial.query, initial.page),
  );
  const [flash, setFlash] = useState<ReadonlySet<string>>(new Set());
  const watermark = useRef(initial.page.watermark);
  const loading = useRef<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const read = useCallback(
    async (cursor: string | undefined) => {
      const key = `${query}|${cursor ?? ""}`;
      if (loading.current === key) return;
      loading.current = key;
      setBusy(true);
      setData((d) => (d.error ? { ...d, error: undefined } : d));
      try {
        const page = await fetchJson<OrderPage>(pageUrl(state, cursor));
        if (!cursor) watermark.current = page.watermark;
        setData((d) =>
          cursor
            ? d.query === query && d.cursor === cursor
              ? { ...appendPage(d, page), query, cursor: page.nextCursor }
              : d
            : fromPage(query, page),
        );
      } catch (e) {
        setData((d) => ({ ...d, error: (e as Error).message }));
      } finally {
        if (loading.current === key) loading.current = undefined;
        setBusy(false);
      }
    },
    [query, state],
  );

  // A new filter: its first page (the server rendered the first filter's).
  useEffect(() => {
    if (data.query !== query) void read(undefined);
  }, [data.query, query, read]);

  const changes = useQuery({
    queryKey: orderKeys.changes(query),
    queryFn: ({ signal }) =>
      fetchJson<OrderChanges>(`/api/orders/changes${orderListParams.filterQuery(state) || "?"}&since=${watermark.current}`, signal),
    enabled: data.query === query,
    staleTime: 0,
  });
  const seen = useRef<OrderChanges | undefined>(undefined);
  useEffect(() => {
    const c = changes.data;
    if (!c || seen.current === c || data.query !== query) return;
    seen.current = c;
    if (c.watermark > watermark.current) watermark.current = c.watermark;
    if (!c.rows.length) return;
    const merged = mergeChanges(data, c.rows);
    setData({ ...data, ...merged.state });
    if (merged.changed.length) setFlash((f) => new Set([...f, ...merged.changed]));
  }, [changes.data, data, query]);

  useEffect(() => {
    if (!flash.size) return;
    const t = setTimeout(() => setFlash(new Set()), FLASH_MS);
    return () => clearTimeout(t);
  }, [flash]);

  const loadMore = useCallback(() => {
    if (data.more && data.cursor && !data.error) void read(data.cursor);
  }, [data.more, data.cursor, data.error, read]);

  const show = useCallback(() => {
    setFlash(new Set(data.fresh.map((r) => r.id)));
    setData((d) => ({ ...d, ...showFresh(d) }));
  }, [data.fresh]);

  return {
    rows: data.rows,
    more: data.more,
    fresh: data.fresh,
    gone: data.gone,
    flash,
    error: data.error,
    busy,
    stale: data.query !== query,
    loadMore,
    show,
    retry: () => read(data.query === query ? data.cursor : undefined),
  };
}

function fromPage(query: string, page: OrderPage): BlotterRows & { query: string; cursor?: string } {
  return { query, rows: page.rows, more: !!page.nextCursor, cursor: page.nextCursor, fresh: [], gone: new Set() };
}
