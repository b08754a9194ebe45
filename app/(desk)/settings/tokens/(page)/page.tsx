import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { ListPage } from "@/components/data-table/list-page";
import { tokenList } from "@/components/tokens/query-keys";
import { TokensView } from "@/components/tokens/tokens-view";
import { can } from "@/lib/auth/permissions";
import { tokenListParams } from "@/lib/schemas/token-list";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { listTokenPage } from "@/server/tokens/tokens";

export const metadata: Metadata = { title: "Access tokens" };

/** Thin page: permission, URL state, the first page prefetched; the client table keeps it live. */
export default async function TokensPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const me = await requirePermission("tokens:own");
  const params = tokenListParams.parse(await searchParams);
  const canManage = can(me.role, "tokens:manage");
  if (params.view === "all" && !canManage) forbidden();
  const db = await getDb();
  return (
    <ListPage
      title="Access tokens"
      description="Tokens let your assistants and automations call the desk's API as you: each call acts with your current role, within the token's scopes."
      prefetch={(client) =>
        client.prefetchQuery({
          queryKey: tokenList.key(params),
          queryFn: () => listTokenPage(db, me, { view: params.view, cursor: params.cursor, limit: params.size }),
        })
      }
    >
      <TokensView meId={me.id} canManage={canManage} />
    </ListPage>
  );
}
