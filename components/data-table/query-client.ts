import { defaultShouldDehydrateQuery, isServer, QueryClient } from "@tanstack/react-query";

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
