import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";
import { jsonRoute } from "@/server/http";

/** One page of the accounts table, for the table's client-side refetches (same params as the page URL). */
export const GET = jsonRoute({ permission: "accounts:read", params: parseAccountListParams }, ({ params }) => listAccountsPage(params));
