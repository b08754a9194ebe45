import type { Query, QueryClient } from "@tanstack/react-query";
import type { HeardLog } from "@/lib/live-ready";
import { topicsOfQueryRoot } from "@/lib/stream-health";

/**
 * A read in flight that a refetch now would not replace by a new one: a paged list reading an older page ("Older
 * runs", "Load more"; a refetch would cancel it), or a query's first read (TanStack Query joins a refetch of a query
 * without data to the read in flight, whose answer may predate the change).
 */
const readInFlight = (q: Query) =>
  q.state.fetchStatus === "fetching" && (q.state.data === undefined || q.state.fetchMeta?.fetchMore !== undefined);

const waiting = new WeakSet<Query>();

/**
 * The lists under `roots` read again (a live notice said they changed): each refetches every page it shows. A list
 * reading an older page reads again once that page has come: a refetch now would cancel the read, and the page the
 * reader asked for would be lost (the list would stay at the pages it had). A query whose first read is in flight
 * reads again once it has come: that read may have been made before the change, and nothing else would read it.
 */
export function readAgain(client: QueryClient, roots: ReadonlySet<string>) {
  const cache = client.getQueryCache();
  const under = (q: Query) => roots.has(String(q.queryKey[0]));
  void client.invalidateQueries({ predicate: (q) => under(q) && !readInFlight(q) });
  for (const q of cache.findAll({ predicate: (q) => under(q) && readInFlight(q) })) {
    if (waiting.has(q)) continue;
    waiting.add(q);
    const stop = cache.subscribe((event) => {
      // Removed from the cache (no one shows it any more): nothing to read again, and nothing left to wait for.
      const removed = event.type === "removed" && event.query === q;
      if (!removed && q.state.fetchStatus !== "idle") return;
      stop();
      waiting.delete(q);
      if (!removed) void client.invalidateQueries({ queryKey: q.queryKey, exact: true });
    });
  }
}

interface PagedQuery {
  isRefetching: boolean;
  refetch(options: { cancelRefetch: false }): Promise<unknown>;
  fetchNextPage(): Promise<unknown>;
}

/**
 * The next (older) page of a list, asked for by the reader: after a refetch in flight (a live notice's) rather than
 * cancelling it, which would keep the pages as they were before the change.
 */
export async function readOlder(query: PagedQuery) {
  if (query.isRefetching) await query.refetch({ cancelRefetch: false });
  await query.fetchNextPage();
}

/**
 * Data read on the server enters the tab as of its read (`dataUpdatedAt`, the server's clock: a page's prefetch
 * hydrated, `dehydrateAsOf`; a component's `initialData` with `initialDataUpdatedAt`, `useReadAt`). A notice heard
 * before it came found no query to make stale, so such a query reads again at once when the tab heard its topics
 * change since that read. Returns what stops watching.
 */
export function watchServerData(client: QueryClient, heard: HeardLog): () => void {
  return client.getQueryCache().subscribe((event) => {
    const fromServer =
      (event.type === "added" && event.query.state.data !== undefined) || (event.type === "updated" && event.action.type === "setState");
    if (!fromServer) return;
    const { queryKey, state } = event.query;
    if (!heard.changedSince(topicsOfQueryRoot(String(queryKey[0])), state.dataUpdatedAt)) return;
    // Not while the query is being built or hydrated (that happens as a component renders).
    setTimeout(() => void client.invalidateQueries({ queryKey, exact: true }), 0);
  });
}
