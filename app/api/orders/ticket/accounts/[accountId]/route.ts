import { accountPathParams } from "@/server/accounts/route-params";
import { jsonRoute } from "@/server/http";
import { getTicketAccount } from "@/server/orders/ticket-data";

/** The chosen account as the ticket needs it: option level, permissions, buying power, holdings. */
export const GET = jsonRoute({ permission: "orders:place", params: accountPathParams }, ({ params }) => getTicketAccount(params.accountId));
