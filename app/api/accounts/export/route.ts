import { parseAccountListParams } from "@/lib/schemas/account-list-params";
import { upstreamFilter } from "@/server/accounts/accounts";
import { ACCOUNT_CSV_COLUMNS, accountCsvRows } from "@/server/accounts/csv";
import { csvRoute } from "@/server/http";

/** CSV of every account matching the table's filter (all pages, walked on the server), streamed and audited. */
export const GET = csvRoute(
  {
    permission: "accounts:read",
    params: parseAccountListParams,
    action: "accounts.export",
    filename: "virtual-accounts",
    columns: ACCOUNT_CSV_COLUMNS,
    filter: upstreamFilter,
  },
  ({ params }) => accountCsvRows(params),
);
