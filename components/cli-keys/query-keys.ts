import type { QueryClient } from "@tanstack/react-query";
import { listResource } from "@/components/data-table/list-resource";
import { accessKeyListParams, type AccessKeyListParams, type AccessKeyView } from "@/lib/schemas/access-key-list";

/**
 * The access key lists' pages: query keys (roots `access-keys` and `access-keys-all`, both the live `access-key`
 * topic's) and GET routes, one a view.
 */
export const accessKeyLists = {
  mine: listResource<AccessKeyListParams>("access-keys", "/api/access-keys", accessKeyListParams),
  all: listResource<AccessKeyListParams>("access-keys-all", "/api/access-keys/all", accessKeyListParams),
} satisfies Record<AccessKeyView, unknown>;

/** Every list of keys reads again after a change made here (the live notice tells the other tabs). */
export async function invalidateAccessKeyLists(client: QueryClient): Promise<void> {
  await Promise.all(["access-keys", "access-keys-all"].map((root) => client.invalidateQueries({ queryKey: [root] })));
}
