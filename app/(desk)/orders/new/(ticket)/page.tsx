import type { Metadata } from "next";
import Link from "next/link";
import { OrderTicket } from "@/components/order-ticket/order-ticket";
import { Alert } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";
import type { TicketAccount } from "@/lib/schemas/order-ticket-data";
import { requirePermission } from "@/server/auth/guard";
import { getTicketAccount } from "@/server/orders/ticket-data";

export const metadata: Metadata = { title: "Place an order" };

/** The order ticket; `?account=` (from an account page) opens it on that account. */
export default async function NewOrderPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  await requirePermission("orders:place");
  const { account } = await searchParams;
  let initial: TicketAccount | undefined;
  let problem: string | undefined;
  if (account) {
    try {
      initial = await getTicketAccount(account);
    } catch (error) {
      problem = (error as { userMessage?: string }).userMessage ?? "The account could not be read.";
    }
  }
  return (
    <>
      <PageHeader
        title="Place an order"
        description={
          account ? (
            <Link href={`/accounts/${encodeURIComponent(account)}`} prefetch={false} className="text-blue-700 hover:underline">
              ← Account
            </Link>
          ) : (
            "For a customer's virtual account"
          )
        }
      />
      {problem ? (
        <div className="mb-3">
          <Alert>{problem} Choose the account again below.</Alert>
        </div>
      ) : null}
      <OrderTicket initialAccount={initial} />
    </>
  );
}
