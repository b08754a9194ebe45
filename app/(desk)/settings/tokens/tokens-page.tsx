import { ListPage } from "@/components/data-table/list-page";
import { tokenLists } from "@/components/tokens/query-keys";
import { TokensView } from "@/components/tokens/tokens-view";
import { can } from "@/lib/auth/permissions";
import { tokenListParams, type TokenView } from "@/lib/schemas/token-list";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { listTokenPage } from "@/server/tokens/tokens";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Both Access tokens pages (one's own, everyone's): the view's permission, URL state, its first page prefetched with
 * the data function its GET route calls; the client table keeps it live.
 */
export async function TokensPage({ view, searchParams }: { view: TokenView; searchParams: SearchParams }) {
  const me = await requirePermission(view === "all" ? "tokens:manage" : "tokens:own");
  const params = tokenListParams.parse(await searchParams);
  const db = await getDb();
  return (
    <ListPage
      title="Access tokens"
      description={
        view === "all"
          ? "Every staff member's access tokens. Revoke one that should not be used any more: it stops working at its next call."
          : "Tokens let your assistants and automations call the desk's API as you: each call acts with your current role, within the token's scopes."
      }
      prefetch={[
        {
          queryKey: tokenLists[view].key(params),
          queryFn: () => listTokenPage(db, me, { view, cursor: params.cursor, limit: params.size }),
        },
      ]}
    >
      <TokensView view={view} meId={me.id} canManage={can(me, "tokens:manage")} />
    </ListPage>
  );
}
