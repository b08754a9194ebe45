import { tokenListParams, type TokenListParams } from "@/lib/schemas/token-list";
import { credentialLists } from "./credential-lists";

/** The access token lists: roots `tokens` and `tokens-all` (the live `token` topic's), GET /api/tokens and /api/tokens/all. */
export const tokenLists = credentialLists<TokenListParams>("tokens", "/api/tokens", tokenListParams);
