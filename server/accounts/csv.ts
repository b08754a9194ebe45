import "server-only";
import type { AccountListParams } from "@/lib/schemas/account-list-params";
import { PERMISSION_LABELS, type TradingPermission } from "@/lib/schemas/virtual-account";
import { broker, paginate, type BrokerClient } from "@/server/broker";
import { toRow, upstreamFilter } from "./accounts";

/**
 * The accounts CSV export's rows (written out by server/http csvRoute): every account matching the table's filter.
 * The upstream cursor is walked here, on the server, one page of 200 at a time, each page read only when the
 * stream wants more (memory stays flat). No PII beyond the owner's name.
 */
export const ACCOUNT_CSV_COLUMNS = [
  "Account number",
  "External number",
  "Owner",
  "Type",
  "Status",
  "Permissions",
  "Option level",
  "Commission code",
  "Created (UTC)",
];

export async function* accountCsvRows(p: AccountListParams, client: BrokerClient = broker()): AsyncGenerator<string[]> {
  const filter = upstreamFilter(p);
  for await (const account of paginate((cursor) => client.listVirtualAccounts({ ...filter, page_size: 200, cursor }))) {
    const r = toRow(account);
    yield [
      r.account_number,
      r.external_account_number,
      r.owner_name,
      r.account_type,
      r.account_status,
      r.trading_permissions.map((x) => PERMISSION_LABELS[x as TradingPermission] ?? x).join("; "),
      r.option_level,
      r.commission_code,
      r.create_time,
    ];
  }
}
