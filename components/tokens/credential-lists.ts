import type { QueryClient } from "@tanstack/react-query";
import { listResource } from "@/components/data-table/list-resource";
import type { ListParams, PageState } from "@/lib/list-params";

/**
 * The lists of a kind of staff credential (access tokens, the command line's access keys), one a view: their URL
 * state's `params`, query keys (roots `root` and `${root}-all`, both the kind's live topic's) and GET routes (`path`,
 * `${path}/all`). After a change made here `invalidate` reads every list of the kind again (the live notice tells
 * the other tabs).
 */
export function credentialLists<St extends PageState>(root: string, path: string, params: ListParams<St>) {
  const roots = [root, `${root}-all`];
  return {
    params,
    mine: listResource<St>(root, path, params),
    all: listResource<St>(`${root}-all`, `${path}/all`, params),
    async invalidate(client: QueryClient): Promise<void> {
      await Promise.all(roots.map((r) => client.invalidateQueries({ queryKey: [r] })));
    },
  };
}

export type CredentialLists<St extends PageState> = ReturnType<typeof credentialLists<St>>;
