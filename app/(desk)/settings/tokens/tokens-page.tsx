import { tokenLists } from "@/components/tokens/query-keys";
import { TokensView } from "@/components/tokens/tokens-view";
import { listTokenPage, TOKEN_CREDENTIAL } from "@/server/tokens/tokens";
import { credentialsPage } from "../credentials-page";

/** Both Access tokens pages (one's own, everyone's). */
export const TokensPage = credentialsPage({
  title: "Access tokens",
  description: {
    all: "Every staff member's access tokens. Revoke one that should not be used any more: it stops working at its next call.",
    mine: "Tokens let your assistants and automations call the desk's API as you: each call acts with your current role, within the token's scopes.",
  },
  credential: TOKEN_CREDENTIAL,
  lists: tokenLists,
  list: listTokenPage,
  body: (view, me, canManage) => <TokensView view={view} meId={me.id} canManage={canManage} />,
});
