import type { Query, QueryClient } from "@tanstack/react-query";

/** A paged list in the middle of reading an older page ("Older runs", "Load more"). */
const readingOlder = (q: Query) => q.state.fetchStatus === "fetching" && q.state.fetchMeta?.fetchMore !== undefined;

const waiting = new WeakSet<Query>();

/**
 * The lists under `roots` read again (a live notice said they changed): each refetches every page it shows. A list
 * reading an older page reads again once that page has come: a refetch now would cancel the read, and the page the
 * reader asked for would be lost (the list would stay at the pages it had).
 */
export function readAgain(client: QueryClient, roots: ReadonlySet<string>) {
  const cache = client.getQueryCache();
  const under = (q: Query) => roots.has(String(q.queryKey[0]));
  void client.invalidateQueries({ predicate: (q) => under(q) && !readingOlder(q) });
  for (const q of cache.findAll({ predicate: (q) => under(q) && readingOlder(q) })) {
    if (waiting.has(q)) continue;
    waiting.add(q);
    const stop = cache.subscribe(() => {
      if (q.state.fetchStatus !== "idle") return;
      stop();
      waiting.delete(q);
      void client.invalidateQueries({ queryKey: q.queryKey, exact: true });
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
