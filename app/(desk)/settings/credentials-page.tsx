import type { ReactNode } from "react";
import { ListPage } from "@/components/data-table/list-page";
import type { CredentialLists } from "@/components/tokens/credential-lists";
import { can } from "@/lib/auth/permissions";
import type { PageState } from "@/lib/list-params";
import type { TokenView } from "@/lib/schemas/token-list";
import { requirePermission, type Staff } from "@/server/auth/guard";
import { getDb, type AppDb } from "@/server/db";
import { requestReadAt } from "@/server/notices/read-at";
import type { CredentialKind } from "@/server/tokens/credentials";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A kind of staff credential's settings pages: their title and each view's line, what they read, their body. */
interface CredentialsPageKind<St extends PageState> {
  title: string;
  description: Record<TokenView, string>;
  credential: CredentialKind;
  lists: CredentialLists<St>;
  /** The data function the lists' GET routes call. */
  list: (db: AppDb, staff: Staff, query: { view: TokenView; cursor?: string; limit: number }) => Promise<unknown>;
  /** The client body, given who reads the page and whether they may manage everyone's. */
  body: (view: TokenView, me: Staff, canManage: boolean) => ReactNode | Promise<ReactNode>;
}

/**
 * Both settings pages of a kind of staff credential (one's own, everyone's: the access tokens, the command line's
 * access keys) as one page component: the view's permission (the kind's `own` or `manage`), URL state, its first
 * page prefetched with the data function its GET route calls; the client table keeps it live.
 */
export function credentialsPage<St extends PageState>(page: CredentialsPageKind<St>) {
  const { credential, lists } = page;
  return async function CredentialsPage({ view, searchParams }: { view: TokenView; searchParams: SearchParams }) {
    const me = await requirePermission(view === "all" ? credential.manage : credential.own);
    const params = lists.params.parse(await searchParams);
    const db = await getDb();
    return (
      <ListPage
        title={page.title}
        description={page.description[view]}
        readAt={requestReadAt()}
        prefetch={[
          {
            queryKey: lists[view].key(params),
            queryFn: () => page.list(db, me, { view, cursor: params.cursor, limit: params.size }),
          },
        ]}
      >
        {await page.body(view, me, can(me, credential.manage))}
      </ListPage>
    );
  };
}
