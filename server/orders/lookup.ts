import "server-only";
import { NotFoundError } from "@/lib/errors";
import { CLIENT_ID_PATTERN } from "@/lib/ids";
import type { OrderLookup } from "@/lib/schemas/order-lookup";
import { rememberAccountNumbers, resolveAccount } from "@/server/accounts/directory";
import { applyOrderGroup } from "@/server/books/snapshots";
import type { BrokerClient } from "@/server/broker/client";
import { isBrokerError } from "@/server/broker/errors";
import type { Engine } from "@/server/db/engine";
import { findOrdersByAnyId } from "./queries/blotter";

/**
 * A support agent's lookup of one order by its id or client order id, for the account the customer names: the
 * books first; when they lack it, the upstream (which answers an order only with its account): the detail call by
 * client order id, then the account's open orders, then its order history back `HISTORY_DAYS` (the upstream's
 * limit), page by page up to `MAX_PAGES`. A found order enters the books as the sweep's do (a snapshot event of its
 * whole group), so its page, the blotter and the live updates have it like any other.
 */
export const HISTORY_DAYS = 183;
const MAX_PAGES = 20;
const PAGE_SIZE = 100;

const isGone = (e: unknown) => isBrokerError(e) && (e.status === 404 || e.errorCode.endsWith("NOT_FOUND"));

const inBooks = async (engine: Engine, accountId: string, id: string) =>
  (await findOrdersByAnyId(engine, id, 20)).find((o) => o.accountId === accountId);

/** The account the customer named, by number (the directory, else the upstream's listing) or by id. */
async function accountOf(
  engine: Engine,
  client: BrokerClient,
  account: string,
): Promise<{ accountId: string; accountNumber: string | null }> {
  const known = await resolveAccount(engine, account);
  if (known.accountNumber) return known;
  let cursor: string | undefined;
  do {
    // The number as a filter: one call where the upstream serves it; an upstream that ignores it is paged through.
    const page = await client.listVirtualAccounts({ page_size: 100, account_number: account, ...(cursor ? { cursor } : {}) });
    await rememberAccountNumbers(engine, page.items);
    const hit = page.items.find((a) => a.account_number === account || a.account_id === account);
    if (hit) return { accountId: hit.account_id, accountNumber: hit.account_number ?? null };
    cursor = page.nextCursor;
  } while (cursor);
  throw new NotFoundError(`No account ${account} at the upstream. Check the number the customer reads out.`);
}

export async function lookUpOrder(
  d: { engine: Engine; client: BrokerClient; now?: () => number },
  input: { account: string; id: string },
): Promise<OrderLookup> {
  const { engine, client } = d;
  const { accountId, accountNumber } = await accountOf(engine, client, input.account);
  const found = (source: OrderLookup["source"]) => async (): Promise<OrderLookup | undefined> => {
    const row = await inBooks(engine, accountId, input.id);
    return row && { id: row.id, accountId, accountNumber, source };
  };
  const fromBooks = await found("books")();
  if (fromBooks) return fromBooks;
  const fromUpstream = found("upstream");

  // The detail call answers a client order id only.
  if (CLIENT_ID_PATTERN.test(input.id)) {
    try {
      await applyOrderGroup(engine, accountId, await client.getOrder({ account_id: accountId, client_order_id: input.id }));
      const hit = await fromUpstream();
      if (hit) return hit;
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  }

  const start = new Date((d.now?.() ?? Date.now()) - HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10);
  const lists = [
    (cursor?: string) => client.listOpenOrders({ account_id: accountId, page_size: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
    (cursor?: string) =>
      client.listOrderHistory({ account_id: accountId, start_date: start, page_size: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
  ];
  let pages = 0;
  for (const list of lists) {
    let cursor: string | undefined;
    do {
      const page = await list(cursor);
      pages += 1;
      const group = page.items.find((g) => g.orders.some((o) => o.client_order_id === input.id || o.order_id === input.id));
      if (group) {
        await applyOrderGroup(engine, accountId, group);
        const hit = await fromUpstream();
        if (hit) return hit;
      }
      cursor = page.nextCursor;
    } while (cursor && pages < MAX_PAGES);
  }
  const name = accountNumber ?? accountId;
  throw new NotFoundError(
    pages >= MAX_PAGES
      ? `No order ${input.id} for account ${name} in the desk's books nor in the first ${MAX_PAGES * PAGE_SIZE} orders of its upstream history. Ask the customer for the client order id.`
      : `No order ${input.id} for account ${name}: not in the desk's books, nor among its open orders or its order history of the last 6 months at the upstream.`,
  );
}
