"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import { fetchJson } from "@/components/data-table/fetch-json";
import { readOlder } from "@/components/live/read-again";
import type { RunsPage } from "@/lib/schemas/runs";
import { useReadAt } from "@/components/live/read-at";

/**
 * A run history read a page at a time from its route (`?before=` for older pages), live under `key`: a notice reads
 * every page shown again, each from the end of the one before. Spread into `RunsTable` (`runs`, `stale`, `older`).
 */
export function useRunPages<R extends { id: number }>(key: readonly string[], url: string, initial: RunsPage<R>) {
  const readAt = useReadAt();
  const query = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) => fetchJson<RunsPage<R>>(pageParam === null ? url : `${url}?before=${pageParam}`, signal),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next,
    initialData: { pages: [initial], pageParams: [null] },
    initialDataUpdatedAt: readAt,
  });
  return {
    runs: query.data.pages.flatMap((p) => p.runs),
    stale: query.isError,
    older: query.hasNextPage ? { loading: query.isFetchingNextPage, load: () => void readOlder(query) } : undefined,
  };
}
