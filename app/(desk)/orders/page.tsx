import type { Metadata } from "next";
import { OrdersBlotter } from "@/components/orders/orders-blotter";
import { PageHeader } from "@/components/ui/page";
import { orderListParams } from "@/lib/schemas/order-list";
import { requirePermission } from "@/server/auth/guard";
import { getDb } from "@/server/db";
import { listOrders } from "@/server/orders/blotter";

export const metadata: Metadata = { title: "Orders" };

/** Thin page: permission, URL state, the first keyset page from the read model; the client blotter takes over. */
export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePermission("orders:read");
  const params = orderListParams.parse(await searchParams);
  const page = await listOrders((await getDb()).engine, orderListParams.filters(params), { limit: params.size });
  return (
    <>
      <PageHeader title="Orders" description="Every account's orders from the desk's records, newest first; changes arrive live." />
      <OrdersBlotter initial={{ query: orderListParams.apiQuery({ ...params, cursor: undefined }), page }} />
    </>
  );
}
