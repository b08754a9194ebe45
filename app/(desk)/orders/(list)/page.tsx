import type { Metadata } from "next";
import { ListPage } from "@/components/data-table/list-page";
import { OrdersBlotter } from "@/components/orders/orders-blotter";
import { blotterPages } from "@/components/orders/query-keys";
import { orderListParams } from "@/lib/schemas/order-list";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { listOrders } from "@/server/orders/queries/blotter";

export const metadata: Metadata = { title: "Orders" };

/** Thin page: permission, URL state, the first keyset page prefetched from the read model; the client blotter takes over. */
export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("orders:read");
  const params = orderListParams.parse(await searchParams);
  const db = await getDb();
  return (
    <ListPage
      title="Orders"
      description="Every account's orders from the desk's records, newest first; changes arrive live."
      prefetch={(client) =>
        client.prefetchInfiniteQuery({
          queryKey: blotterPages.key(orderListParams.apiQuery({ ...params, cursor: undefined })),
          queryFn: () => listOrders(db.engine, orderListParams.filters(params), { limit: params.size }),
          initialPageParam: undefined as string | undefined,
        })
      }
    >
      <OrdersBlotter />
    </ListPage>
  );
}
