import { NotFoundNotice } from "@/components/ui/page";

export default function OrderNotFound() {
  return <NotFoundNotice title="Order not found" text="The desk has no record of this order." href="/orders" back="Back to orders" />;
}
