import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { CliKeysView } from "@/components/cli-keys/cli-keys-view";
import { accessKeyList } from "@/components/cli-keys/query-keys";
import { ListPage } from "@/components/data-table/list-page";
import { can } from "@/lib/auth/permissions";
import { accessKeyListParams } from "@/lib/schemas/access-key-list";
import { requirePermission } from "@/server/auth/guard";
import { pageOrigin } from "@/server/auth/request-meta";
import { listAccessKeyPage } from "@/server/cli-auth/keys";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Command line" };

/** Thin page: permission, URL state, the first page of keys prefetched; the client table keeps it live. */
export default async function CliPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const me = await requirePermission("cli:own");
  const params = accessKeyListParams.parse(await searchParams);
  const canManage = can(me.role, "cli:manage");
  if (params.view === "all" && !canManage) forbidden();
  const db = await getDb();
  return (
    <ListPage
      title="Command line"
      description="Access keys sign the brokerdesk command line's requests as you: log in with a key and your authenticator's code (Settings → Security), and each command acts with your current role, within the key's scopes."
      prefetch={(client) =>
        client.prefetchQuery({
          queryKey: accessKeyList.key(params),
          queryFn: () => listAccessKeyPage(db, me, { view: params.view, cursor: params.cursor, limit: params.size }),
        })
      }
    >
      <CliKeysView meId={me.id} canManage={canManage} deskUrl={await pageOrigin()} />
    </ListPage>
  );
}
