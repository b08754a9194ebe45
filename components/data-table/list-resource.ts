import type { PageState } from "@/lib/list-params";

/**
 * A listing's query key and GET route URL, built from its params' `apiQuery` (what the server's answer depends on),
 * shared by the page's server prefetch and the client table, so a prefetched page is found again on hydration. The
 * key's first element is the root the live channel invalidates (`LIVE_TOPIC_QUERY_ROOTS`).
 */
export function listResource<St extends PageState>(root: string, path: string, params: { apiQuery: (state: Partial<St>) => string }) {
  return {
    key: (state: St) => [root, "list", params.apiQuery(state)] as const,
    url: (state: St) => `${path}${params.apiQuery(state)}`,
  };
}

export type ListResource<St extends PageState> = ReturnType<typeof listResource<St>>;
