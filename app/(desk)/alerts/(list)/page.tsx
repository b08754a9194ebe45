import type { Metadata } from "next";
import { alertKeys } from "@/components/alerts/alert-labels";
import { AlertsTable } from "@/components/alerts/alerts-table";
import { ListPage } from "@/components/data-table/list-page";
import { alertListParams } from "@/lib/schemas/surveillance";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { listAlerts, listRules } from "@/server/surveillance/queries/alerts";

export const metadata: Metadata = { title: "Alerts" };

/** Thin page: permission, URL state, the first page prefetched from the database; the client table keeps it live. */
export default async function AlertsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("alerts:read");
  const params = alertListParams.parse(await searchParams);
  const db = await getDb();
  const rules = (await listRules(db.engine)).map(({ id, name }) => ({ id, name }));
  return (
    <ListPage
      title="Alerts"
      description="What the surveillance rules raised as movements and orders arrived, newest first. New alerts appear as they are raised."
      prefetch={(client) =>
        client.prefetchQuery({
          queryKey: alertKeys.list(params),
          queryFn: () => listAlerts(db.engine, { ...alertListParams.filters(params), cursor: params.cursor, limit: params.size }),
        })
      }
    >
      <AlertsTable rules={rules} />
    </ListPage>
  );
}
