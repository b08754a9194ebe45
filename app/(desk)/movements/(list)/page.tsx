import type { Metadata } from "next";
import { listPage } from "@/app/(desk)/list-page";
import { LinkButton } from "@/components/ui/button";
import { can } from "@/lib/auth/permissions";
import { MovementsTable } from "@/components/movement-list/movements-table";
import { movementList, movementListTotals } from "@/components/movement-list/query-keys";
import { movementListParams } from "@/lib/schemas/movement-list";
import { listMovementPage, movementTotals } from "@/server/movement-list/queries/list";

export const metadata = { title: "Movements" } satisfies Metadata;

/** The first page and the totals prefetched from the read model; the client table takes over. */
export default listPage(metadata, "movements:read", movementListParams, (params, { db: { engine }, filter, staff }) => ({
  description: "Cash and position journals, instant funding, FX and instant exchanges across accounts, newest first; changes arrive live.",
  actions: can(staff, "movements:write") ? <LinkButton href="/movements/new">New movement</LinkButton> : null,
  prefetch: [
    {
      queryKey: movementList.key(params),
      queryFn: () => listMovementPage(engine, filter, { cursor: params.cursor, limit: params.size }),
    },
    { queryKey: movementListTotals.key(params), queryFn: () => movementTotals(engine, filter) },
  ],
  table: <MovementsTable />,
}));
