import { CliKeysView } from "@/components/cli-keys/cli-keys-view";
import { accessKeyLists } from "@/components/cli-keys/query-keys";
import { ListPage } from "@/components/data-table/list-page";
import { can } from "@/lib/auth/permissions";
import { accessKeyListParams, type AccessKeyView } from "@/lib/schemas/access-key-list";
import { requirePermission } from "@/server/auth/guard";
import { pageOrigin } from "@/server/auth/request-meta";
import { listAccessKeyPage } from "@/server/cli-auth/keys";
import { getDb } from "@/server/db";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/**
 * Both Command line pages (one's own access keys, everyone's): the view's permission, URL state, its first page
 * prefetched with the data function its GET route calls; the client table keeps it live.
 */
export async function CliPage({ view, searchParams }: { view: AccessKeyView; searchParams: SearchParams }) {
  const me = await requirePermission(view === "all" ? "cli:manage" : "cli:own");
  const params = accessKeyListParams.parse(await searchParams);
  const db = await getDb();
  return (
    <ListPage
      title="Command line"
      description={
        view === "all"
          ? "Every staff member's access keys of the command line. Revoke one that should not be used any more: its sessions end at once."
          : "Access keys sign the brokerdesk command line's requests as you: log in with a key and your authenticator's code (Settings → Security); each command acts with your current role, within the key's scopes."
      }
      prefetch={[
        {
          queryKey: accessKeyLists[view].key(params),
          queryFn: () => listAccessKeyPage(db, me, { view, cursor: params.cursor, limit: params.size }),
        },
      ]}
    >
      <CliKeysView view={view} meId={me.id} canManage={can(me, "cli:manage")} deskUrl={await pageOrigin()} />
    </ListPage>
  );
}
