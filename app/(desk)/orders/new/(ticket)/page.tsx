import type { Metadata } from "next";
import { OrderTicket } from "@/components/order-ticket/order-ticket";
import { PageHeader } from "@/components/ui/page";
import { tryRead } from "@/lib/errors";
import { ticketInstrumentIn } from "@/lib/schemas/order-ticket";
import { requirePermission } from "@/server/auth/guard";
import { getTicketAccount } from "@/server/orders/ticket-data";

export const metadata: Metadata = { title: "Place an order" };

/**
 * The order ticket; `?account=` (from an account page) opens it on that account, `?market=&symbol=` (from an
 * instrument page) on that symbol. A market or symbol that is not one is left out: the ticket opens blank there.
 */
export default async function NewOrderPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  await requirePermission("orders:place");
  const { account, market, symbol } = await searchParams;
  const instrument = ticketInstrumentIn.safeParse({ market: market?.toUpperCase(), symbol });
  const { value: initial, problem } = account ? await tryRead(getTicketAccount(account), "The account could not be read.") : {};
  return (
    <>
      <PageHeader
        title="Place an order"
        description="For a customer's virtual account"
        back={account ? { href: `/accounts/${encodeURIComponent(account)}`, label: "Account", prefetch: false } : undefined}
        problem={problem && `${problem} Choose the account again below.`}
      />
      <OrderTicket initialAccount={initial} initialInstrument={instrument.success ? instrument.data : undefined} />
    </>
  );
}
