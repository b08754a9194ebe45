import { describe, expect, it, vi } from "vitest";
import { roleAccess } from "../helpers/staff";
import type { DeskSearchResult, SearchPart } from "@/lib/schemas/search";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import { checkAccountOrders, pacer } from "@/server/orders/sweep";
import { deskSearch } from "@/server/search/desk-search";
import { ACCOUNTS } from "../sandbox/trading-helpers";
import { usStockOrder } from "../helpers/orders";
import { testEngines } from "../helpers/engines";
import { useProcessFixture } from "../events/helpers";

/**
 * The header's search against a started sandbox: accounts through the accounts list's own upstream search (by number,
 * name or external number), orders from the books by either id, instruments from the instrument master; a part that
 * fails says so while the others answer.
 */
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const rows = <T>(part: SearchPart<T> | undefined): T[] => {
  expect(part && "rows" in part, JSON.stringify(part)).toBe(true);
  return (part as { rows: T[] }).rows;
};

describe.each(testEngines())("the header's search ($name)", (te) => {
  const f = useProcessFixture(te);
  const support = roleAccess("support");
  const search = (q: string): Promise<DeskSearchResult> => deskSearch(f().db.engine, support, q);
  const account = async (id: string) =>
    (await f().client.getVirtualAccount({ account_id: id })) as {
      account_number: string;
      external_account_number: string;
      w8ben_info?: { last_name?: string };
    };

  it("finds an account by its number, its external number and its holder's name", async () => {
    const a = await account(ACCOUNTS.margin);
    expect(rows((await search(a.account_number.toLowerCase())).accounts).map((r) => r.account_id)).toEqual([ACCOUNTS.margin]);
    expect(rows((await search(a.external_account_number)).accounts).map((r) => r.account_id)).toContain(ACCOUNTS.margin);
    const byName = rows((await search(a.w8ben_info!.last_name!)).accounts);
    expect(byName.map((r) => r.account_id)).toContain(ACCOUNTS.margin);
    expect(byName.every((r) => r.owner_name.toLowerCase().includes(a.w8ben_info!.last_name!.toLowerCase()))).toBe(true);
  });

  it("finds an order of the books by its client order id and by the upstream's order id, with its account's number", async () => {
    const order = usStockOrder({ quantity: "3", limit_price: "12.00" });
    const placed = await f().api.call("POST", "/broker/orders/place", { body: { account_id: ACCOUNTS.cash, new_orders: [order] } });
    expect(placed.status).toBe(200);
    expect(rows((await search(order.client_order_id as string)).orders)).toEqual([]);
    // The books learn of it (the open-orders sweep's visit), and the directory of the account's number.
    await rememberAccountNumbers(f().db.engine, (await f().client.listVirtualAccounts({ page_size: 100 })).items);
    await checkAccountOrders({ engine: f().db.engine, client: f().client }, ACCOUNTS.cash, pacer(100));
    const byClientId = rows((await search(order.client_order_id as string)).orders);
    expect(byClientId).toEqual([
      expect.objectContaining({ clientOrderId: order.client_order_id, accountId: ACCOUNTS.cash, symbol: "AAPL", side: "BUY" }),
    ]);
    expect(byClientId[0].accountNumber).toBe((await account(ACCOUNTS.cash)).account_number);
    const byOrderId = rows((await search(byClientId[0].orderId!)).orders);
    expect(byOrderId.map((o) => o.id)).toEqual([byClientId[0].id]);
  });

  it("finds an instrument by symbol or name", async () => {
    expect(rows((await search("AAPL")).instruments).map((i) => i.symbol)).toContain("AAPL");
    expect(rows((await search("apple")).instruments).map((i) => i.symbol)).toContain("AAPL");
  });

  it("a part that fails says so; the others still answer", async () => {
    const fault = await f().api.call("POST", "/sandbox/faults", {
      body: { type: "ERROR", path_pattern: "/broker/accounts/virtual-accounts/list", status: 500, count: 5 },
    });
    expect(fault.status).toBe(200);
    try {
      const result = await search("AAPL");
      expect(result.accounts).toEqual({ error: expect.any(String) });
      expect(rows(result.instruments).map((i) => i.symbol)).toContain("AAPL");
      expect(rows(result.orders)).toEqual([]);
    } finally {
      await f().api.call("POST", "/sandbox/faults/clear");
    }
  });
});
