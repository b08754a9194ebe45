import type { Metadata } from "next";
import { listPage } from "@/app/(desk)/list-page";
import { alertList } from "@/components/alerts/alert-labels";
import { AlertsTable } from "@/components/alerts/alerts-table";
import { alertListParams } from "@/lib/schemas/surveillance";
import { listAlerts, listRules } from "@/server/surveillance/queries/alerts";

export const metadata = { title: "Alerts" } satisfies Metadata;

/** The first page prefetched from the database, the rules named for the filter; the client table keeps it live. */
export default listPage(metadata, "alerts:read", alertListParams, async (params, { db, filter }) => {
  const rules = (await listRules(db.engine)).map(({ id, name }) => ({ id, name }));
  return {
    description: "What the surveillance rules raised as movements and orders arrived, newest first. New alerts appear as they are raised.",
    prefetch: [
      {
        queryKey: alertList.key(params),
        queryFn: () => listAlerts(db.engine, { ...filter, cursor: params.cursor, limit: params.size }),
      },
    ],
    table: <AlertsTable rules={rules} />,
  };
});
