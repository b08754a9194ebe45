import { z } from "zod";
import { jsonRoute } from "@/server/http";
import { searchTicketAccounts } from "@/server/orders/ticket-data";

/** The ticket's account picker: one upstream call per search (number, external number or name). */
export const GET = jsonRoute({ permission: "orders:place", params: z.object({ q: z.string().trim().min(1).max(64) }) }, ({ params }) =>
  searchTicketAccounts(params.q),
);
