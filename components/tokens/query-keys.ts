import type { QueryClient } from "@tanstack/react-query";
import { listResource } from "@/components/data-table/list-resource";
import { tokenListParams, type TokenListParams, type TokenView } from "@/lib/schemas/token-list";

/**
 * The access token lists' pages: query keys (roots `tokens` and `tokens-all`, both the live `token` topic's) and GET
 * routes, one a view.
 */
export const tokenLists = {
  mine: listResource<TokenListParams>("tokens", "/api/tokens", tokenListParams),
  all: listResource<TokenListParams>("tokens-all", "/api/tokens/all", tokenListParams),
} satisfies Record<TokenView, unknown>;

/** Every list of tokens reads again after a change made here (the live notice tells the other tabs). */
export async function invalidateTokenLists(client: QueryClient): Promise<void> {
  await Promise.all(["tokens", "tokens-all"].map((root) => client.invalidateQueries({ queryKey: [root] })));
}
