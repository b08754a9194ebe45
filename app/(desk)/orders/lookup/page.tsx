import type { Metadata } from "next";
import { OrderLookupForm } from "@/components/orders/order-lookup-form";
import { PageHeader } from "@/components/ui/page";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Find an order" };

/** A customer's order by its id or client order id, for the account they name; `?id=` and `?account=` fill the form. */
export default async function OrderLookupPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  await requirePermission("orders:read");
  const { id, account } = await searchParams;
  return (
    <>
      <PageHeader title="Find an order" back={{ href: "/orders", label: "Orders" }} />
      <div className="max-w-2xl">
        <OrderLookupForm id={id?.slice(0, 64) ?? ""} account={account?.slice(0, 64) ?? ""} />
      </div>
    </>
  );
}
