import type { Metadata } from "next";
import { listPage } from "@/app/(desk)/list-page";
import { LinkButton } from "@/components/ui/button";
import { can } from "@/lib/auth/permissions";
import { OrdersBlotter } from "@/components/orders/orders-blotter";
import { blotterPages } from "@/components/orders/query-keys";
import { orderListParams } from "@/lib/schemas/order-list";
import { listOrders } from "@/server/orders/queries/blotter";

export const metadata = { title: "Orders" } satisfies Metadata;

/**
 * The first keyset page prefetched from the read model; the client blotter reads on as it scrolls. Links from the
 * audit trail and the ticket name the account by the upstream's id: the page answers by its number (listPage).
 */
export default listPage(
  metadata,
  "orders:read",
  orderListParams,
  (params, { db, filter, staff }) => ({
    description: "Every account's orders from the desk's records, newest first; changes arrive live.",
    actions: (
      <>
        <LinkButton href="/orders/lookup" variant="secondary">
          Find an order…
        </LinkButton>
        {can(staff, "orders:place") ? <LinkButton href="/orders/new">New order</LinkButton> : null}
      </>
    ),
    prefetch: [
      {
        queryKey: blotterPages.key(orderListParams.apiQuery({ ...params, cursor: undefined })),
        queryFn: () => listOrders(db.engine, filter, { limit: params.size }),
        infinite: true,
      },
    ],
    table: <OrdersBlotter canModify={can(staff, "orders:modify")} />,
  }),
  { path: "/orders" },
);
