"use client";
import { useInfiniteQuery, useQuery, type InfiniteData } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { orderListParams, type OrderChanges, type OrderListParams, type OrderPage, type OrderRow } from "@/lib/schemas/order-list";
import { appendPage, mergeChanges, showFresh, type BlotterRows } from "./blotter-merge";
import { useLiveConnected } from "@/components/live/live-provider";
import { blotterPages, orderKeys } from "./query-keys";

const FLASH_MS = 2_500;

const pageUrl = (state: OrderListParams, cursor?: string) => `/api/orders${orderListParams.apiQuery({ ...state, cursor })}`;

type Merged = BlotterRows & { query: string; pages: number };

const NO_ROWS: OrderRow[] = [];

/**
 * The blotter's rows: keyset pages through /api/orders with TanStack Query (`useInfiniteQuery`; the first one
 * prefetched by the page), the next page read as the reader scrolls (`loadMore`), and live changes since the first
 * page's watermark merged in place (blotter-merge.ts). A filter change reads the first page again, the previous
 * filter's rows dimmed meanwhile; when that read fails they go (`failed`), so no row stands for the new filter that
 * did not answer it. The pages' key is not under the live topic's root: a notice asks for the changes since the
 * watermark, never every page again.
 */
export function useBlotter(state: OrderListParams) {
  const query = orderListParams.apiQuery({ ...state, cursor: undefined });
  const pages = useInfiniteQuery({
    queryKey: blotterPages.key(query),
    queryFn: ({ pageParam, signal }) => fetchJson<OrderPage>(pageUrl(state, pageParam), signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: Infinity,
  });
  const [data, setData] = useState<Merged>(() => merge(undefined, query, pages.data));
  // Pages arriving (or another filter's first page): merged while rendering, so rows and pages never disagree.
  if (pages.data && (data.query !== query || data.pages !== pages.data.pages.length)) setData(merge(data, query, pages.data));
  const [flash, setFlash] = useState<ReadonlySet<string>>(new Set());
  // The newest change the rows on screen include: the first page's, moved on by each batch of changes merged.
  const [watermark, setWatermark] = useState(0);
  const since = Math.max(watermark, pages.data?.pages[0]?.watermark ?? 0);
  const current = data.query === query && !!pages.data;

  const changes = useQuery({
    queryKey: orderKeys.changes(query),
    queryFn: ({ signal }) =>
      fetchJson<OrderChanges>(`/api/orders/changes${orderListParams.filterQuery(state) || "?"}&since=${since}`, signal),
    enabled: current,
    staleTime: 0,
  });
  // The live channel (re)connected: what changed before it heard notices is read now, from the same watermark.
  const connected = useLiveConnected();
  const refetchChanges = changes.refetch;
  useEffect(() => {
    if (connected && current) void refetchChanges();
  }, [connected, current, refetchChanges]);
  // Each batch of changes merged once, while rendering.
  const [seen, setSeen] = useState<OrderChanges | undefined>(undefined);
  const batch = changes.data;
  if (batch && batch !== seen && current) {
    setSeen(batch);
    if (batch.watermark > since) setWatermark(batch.watermark);
    if (batch.rows.length) {
      const merged = mergeChanges(data, batch.rows);
      setData({ ...data, ...merged.state });
      if (merged.changed.length) setFlash(new Set([...flash, ...merged.changed]));
    }
  }

  useEffect(() => {
    if (!flash.size) return;
    const t = setTimeout(() => setFlash(new Set()), FLASH_MS);
    return () => clearTimeout(t);
  }, [flash]);

  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = pages;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);

  // This filter's first page failed: the rows on screen are another filter's, not an answer to this one.
  const failed = !current && pages.isError;

  const show = useCallback(() => {
    setFlash(new Set(data.fresh.map((r) => r.id)));
    setData((d) => ({ ...d, ...showFresh(d) }));
  }, [data.fresh]);

  return {
    rows: failed ? NO_ROWS : data.rows,
    more: !failed && data.more,
    fresh: failed ? NO_ROWS : data.fresh,
    gone: data.gone,
    flash,
    error: pages.error?.message,
    /** The filter's first page could not be read (`error`): no rows are shown, the error and a Retry are. */
    failed,
    busy: pages.isFetching,
    /** The rows on screen are the previous filter's while this one's first page is read (dimmed). */
    stale: !current && !failed,
    loadMore,
    show,
    retry: () => void (pages.data ? fetchNextPage() : pages.refetch()),
  };
}

/** The merged rows after pages arrived: appended to what is on screen, or read afresh for another filter. */
function merge(d: Merged | undefined, query: string, data: InfiniteData<OrderPage> | undefined): Merged {
  const list = data?.pages ?? [];
  if (!d || d.query !== query || list.length < d.pages) {
    let fresh: Merged = { query, pages: 0, rows: [], more: false, fresh: [], gone: new Set() };
    for (const page of list) fresh = { ...appendPage(fresh, page), query, pages: fresh.pages + 1 };
    return fresh;
  }
  let next = d;
  for (const page of list.slice(d.pages)) next = { ...appendPage(next, page), query, pages: next.pages + 1 };
  return next;
}
