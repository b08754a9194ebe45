import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { listAccountsPage } from "@/server/accounts/accounts";
import { jsonRoute } from "@/server/http";

/**
 * One page of the accounts table, for the table's client-side refetches (same params as the page URL). The upstream
 * call ends with the request: a browser that gave up (fetchJson's deadline, a newer filter) stops its retries.
 */
export const GET = jsonRoute({ permission: "accounts:read", params: parseAccountListParams }, ({ params, request }) =>
  listAccountsPage(params, undefined, { signal: request.signal }),
);
