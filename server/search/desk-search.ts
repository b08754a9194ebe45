import "server-only";
import { can } from "@/lib/auth/permissions";
import { userMessageOf } from "@/lib/errors";
import { accountListParams } from "@/lib/schemas/account-list-params";
import type { DeskSearchResult, SearchPart } from "@/lib/schemas/search";
import { listAccountsPage } from "@/server/accounts/accounts";
import type { Staff } from "@/server/auth/guard";
import type { Engine } from "@/server/db/engine";
import { instrumentMaster } from "@/server/fundamentals/instrument-master";
import { findOrdersByAnyId } from "@/server/orders/queries/blotter";

const LIMIT = 5;

/** A part's rows, or its failure in words: one part that cannot be read does not hide the others. */
async function part<T>(read: () => Promise<T[]>): Promise<SearchPart<T>> {
  try {
    return { rows: await read() };
  } catch (error) {
    return { error: userMessageOf(error, "This part of the search could not be read. Try again in a moment.") };
  }
}

/**
 * The header's search, for what the viewer's role may read: accounts by number, name or external number (the
 * accounts list's own search, one upstream list call; the shape of the text picks the field), orders of the books by
 * the upstream's order id or the client order id, instruments of the instrument master by symbol or name.
 */
export async function deskSearch(engine: Engine, staff: Pick<Staff, "permissions">, q: string): Promise<DeskSearchResult> {
  const [accounts, orders, instruments] = await Promise.all([
    can(staff, "accounts:read")
      ? part(async () =>
          (await listAccountsPage(accountListParams.parse({ q, size: "10" }))).rows.slice(0, LIMIT).map((a) => ({
            account_id: a.account_id,
            account_number: a.account_number,
            owner_name: a.owner_name,
            account_status: a.account_status,
          })),
        )
      : undefined,
    can(staff, "orders:read")
      ? part(async () =>
          (await findOrdersByAnyId(engine, q, LIMIT)).map((o) => ({
            id: o.id,
            clientOrderId: o.clientOrderId,
            orderId: o.orderId,
            accountId: o.accountId,
            accountNumber: o.accountNumber,
            symbol: o.symbol,
            side: o.side,
            status: o.status,
          })),
        )
      : undefined,
    can(staff, "market:read") ? part(async () => (await instrumentMaster().search(q)).slice(0, LIMIT)) : undefined,
  ]);
  return { ...(accounts && { accounts }), ...(orders && { orders }), ...(instruments && { instruments }) };
}
