import { defaultShouldDehydrateQuery, dehydrate, isServer, QueryClient, type DehydratedState } from "@tanstack/react-query";

/**
 * Query defaults, chosen on purpose (model: midday's query-client.ts):
 * - staleTime 30 s: data prefetched by the server is not fetched again the moment the page hydrates;
 * - retry off: the Broker client already retries transient upstream failures on the server, and a panel's own
 *   Retry button is the person's choice after that;
 * - no refetch on window focus: an operator switching tabs should not hammer the upstream's rate budget.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: false, refetchOnWindowFocus: false },
      dehydrate: { shouldDehydrateQuery: (q) => defaultShouldDehydrateQuery(q) },
    },
  });
}

let browserClient: QueryClient | undefined;

/** A fresh client per server request (no data shared between users); one client for the browser's lifetime. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}

/**
 * What a page read on the server hands the tab (`dehydrate`), each query as of `readAt`, when the request began to read
 * (server/notices/read-at.ts), not when its read ended: the tab reads again a query whose topics it heard change since
 * (components/live/live-provider.tsx), a change committed while the read ran included.
 */
export function dehydrateAsOf(client: QueryClient, readAt: number): DehydratedState {
  const state = dehydrate(client);
  return { ...state, queries: state.queries.map((q) => ({ ...q, state: { ...q.state, dataUpdatedAt: readAt } })) };
}
