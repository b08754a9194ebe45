import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { OrderDetailView } from "@/components/orders/order-detail";
import { findOrder } from "./lookup";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Order" };

/** Thin page: permission, the order from the read model; the client view keeps it live. */
export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requirePermission("orders:read");
  const { id } = await params;
  const detail = await findOrder(id);
  if (!detail) notFound();
  return (
    <>
      <PageHeader
        title={`Order ${detail.order.clientOrderId}`}
        description={
          <Link href="/orders" className="text-blue-700 hover:underline">
            ← Orders
          </Link>
        }
      />
      <OrderDetailView initial={detail} canModify={can(staff.role, "orders:modify")} />
    </>
  );
}
