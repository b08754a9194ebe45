import { HydrationBoundary, type QueryKey } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ReadAt } from "@/components/live/read-at";
import { PageHeader } from "@/components/ui/page";
import { dehydrateAsOf, makeQueryClient } from "./query-client";

/**
 * A query a listing's page reads on the server, under the key its client table uses, with the data function its GET
 * route calls; `infinite` for a list read in pages as the reader scrolls (the blotter: `useInfiniteQuery`).
 */
export interface Prefetch {
  queryKey: QueryKey;
  queryFn: () => Promise<unknown>;
  infinite?: true;
}

/**
 * A listing page's frame: its header, and its first page read on the server into a fresh query client whose data
 * the client table takes over under the same keys (`prefetch`: the queries, a falsy entry skipped), read from `readAt`
 * on (the server's clock: a change the tab hears of after that is read again as the page arrives). A failed prefetch
 * is not fatal: the table reads again in the browser and shows the error with a Retry.
 */
export async function ListPage({
  title,
  description,
  actions,
  prefetch,
  readAt,
  children,
}: {
  title: string;
  description: ReactNode;
  actions?: ReactNode;
  prefetch: (Prefetch | false | undefined)[];
  readAt: number;
  children: ReactNode;
}) {
  const client = makeQueryClient();
  await Promise.all(
    prefetch.map(
      (q) =>
        q &&
        (q.infinite
          ? client.prefetchInfiniteQuery({ queryKey: q.queryKey, queryFn: q.queryFn, initialPageParam: undefined })
          : client.prefetchQuery({ queryKey: q.queryKey, queryFn: q.queryFn })),
    ),
  );
  return (
    <ReadAt at={readAt}>
      <PageHeader title={title} description={description} actions={actions} />
      <HydrationBoundary state={dehydrateAsOf(client, readAt)}>{children}</HydrationBoundary>
    </ReadAt>
  );
}
