import { listResource } from "@/components/data-table/list-resource";
import { tokenListParams, type TokenListParams } from "@/lib/schemas/token-list";

/** The access tokens' page: query key (root `tokens`, the live channel's) and GET route. */
export const tokenList = listResource<TokenListParams>("tokens", "/api/tokens", tokenListParams);
