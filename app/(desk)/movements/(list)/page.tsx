import type { Metadata } from "next";
import { ListPage } from "@/components/data-table/list-page";
import { MovementsTable } from "@/components/movement-list/movements-table";
import { movementKeys } from "@/components/movement-list/query-keys";
import { movementListParams } from "@/lib/schemas/movement-list";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { listMovementPage, movementTotals } from "@/server/movement-list/queries/list";

export const metadata: Metadata = { title: "Movements" };

/** Thin page: permission, URL state, the first page and totals from the read model; the client table takes over. */
export default async function MovementsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("movements:read");
  const params = movementListParams.parse(await searchParams);
  const engine = (await getDb()).engine;
  const filter = movementListParams.filters(params);
  return (
    <ListPage
      title="Movements"
      description="Cash and position journals, instant funding, FX and instant exchanges across accounts, newest first; changes arrive live."
      prefetch={(client) =>
        Promise.all([
          client.prefetchQuery({
            queryKey: movementKeys.list(params),
            queryFn: () => listMovementPage(engine, filter, { cursor: params.cursor, limit: params.size }),
          }),
          client.prefetchQuery({ queryKey: movementKeys.totals(params), queryFn: () => movementTotals(engine, filter) }),
        ])
      }
    >
      <MovementsTable />
    </ListPage>
  );
}
