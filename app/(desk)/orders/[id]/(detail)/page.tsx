import type { Metadata } from "next";
import { lookupPage } from "@/app/(desk)/guarded-layout";
import { OrderDetailView } from "@/components/orders/order-detail";
import { findOrder } from "./lookup";
import { PageHeader } from "@/components/ui/page";
import { can } from "@/lib/auth/permissions";

export const metadata: Metadata = { title: "Order" };

/** Thin page: the order from the read model; the client view keeps it live. */
export default lookupPage(
  "orders:read",
  ({ id }: { id: string }) => findOrder(id),
  (detail, { staff }) => (
    <>
      <PageHeader title={`Order ${detail.order.clientOrderId}`} back={{ href: "/orders", label: "Orders" }} />
      <OrderDetailView initial={detail} canModify={can(staff, "orders:modify")} />
    </>
  ),
);
