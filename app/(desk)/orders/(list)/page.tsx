import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { listPage, type ListView } from "@/app/(desk)/list-page";
import { LinkButton } from "@/components/ui/button";
import { can } from "@/lib/auth/permissions";
import { OrdersBlotter } from "@/components/orders/orders-blotter";
import { blotterPages } from "@/components/orders/query-keys";
import { orderListParams, type OrderFilter, type OrderListParams } from "@/lib/schemas/order-list";
import { resolveAccount } from "@/server/accounts/directory";
import type { Staff } from "@/server/auth/guard";
import type { AppDb } from "@/server/db";
import { listOrders } from "@/server/orders/queries/blotter";

export const metadata = { title: "Orders" } satisfies Metadata;

/**
 * The first keyset page prefetched from the read model; the client blotter reads on as it scrolls. An account
 * filter given by the upstream's id (a link from the audit trail or the ticket) is shown by the account's number:
 * the page answers with the same address carrying the number, which filters the same.
 */
export default listPage(metadata, "orders:read", orderListParams, async (params, { db, filter, staff, search }) => {
  if (params.account) {
    const { accountNumber } = await resolveAccount(db.engine, params.account);
    if (accountNumber && accountNumber !== params.account) redirect(`/orders?${withAccount(search, accountNumber)}`);
  }
  return view(params, { db, filter, staff });
});

function withAccount(search: Record<string, string | string[] | undefined>, account: string): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) for (const one of [v ?? []].flat()) if (k !== "account") query.append(k, one);
  query.set("account", account);
  return query.toString();
}

const view = (params: OrderListParams, { db, filter, staff }: { db: AppDb; filter: OrderFilter; staff: Staff }): ListView => ({
  description: "Every account's orders from the desk's records, newest first; changes arrive live.",
  actions: (
    <>
      <LinkButton href="/orders/lookup" variant="secondary">
        Find an order…
      </LinkButton>
      {can(staff.role, "orders:place") ? <LinkButton href="/orders/new">New order</LinkButton> : null}
    </>
  ),
  prefetch: [
    {
      queryKey: blotterPages.key(orderListParams.apiQuery({ ...params, cursor: undefined })),
      queryFn: () => listOrders(db.engine, filter, { limit: params.size }),
      infinite: true,
    },
  ],
  table: <OrdersBlotter canModify={can(staff.role, "orders:modify")} />,
});
