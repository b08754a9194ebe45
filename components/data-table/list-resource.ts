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

/**
 * What a listing's GET route answers for its whole filter with `part=` (the movements' totals, the activities'
 * summary): keyed by the filter alone, so paging keeps it.
 */
export function listPart<St extends PageState>(
  root: string,
  part: string,
  path: string,
  params: { filterQuery: (state: Partial<St>) => string },
) {
  return {
    key: (state: St) => [root, part, params.filterQuery(state)] as const,
    url: (state: St) => {
      const q = params.filterQuery(state);
      return `${path}${q ? `${q}&` : "?"}part=${part}`;
    },
  };
}

export type ListResource<St extends PageState> = { key: (state: St) => readonly unknown[]; url: (state: St) => string };
