import { beforeEach, describe, expect, it } from "vitest";
import { NotFoundError } from "@/lib/errors";
import { rememberAccountNumbers } from "@/server/accounts/directory";
import { lookUpOrder } from "@/server/orders/lookup";
import { engines } from "../sandbox/fixture";
import { ACCOUNTS } from "../sandbox/trading-helpers";
import { usStockOrder } from "../helpers/orders";
import { DETAIL, HISTORY, OPEN_LIST, useOrdersFixture } from "../helpers/orders-fixture";

/**
 * A support agent's lookup of an order the customer placed in their own app, which the desk's books lack (no event
 * consumer runs here; the upstream sends no event for an accepted order anyway): the upstream is asked, for the
 * account the customer names, and what it answers enters the books.
 */
describe.each(engines)("order lookup ($name)", (te) => {
  const { f, numbers } = useOrdersFixture(te);
  beforeEach(async () => {
    await f.db.engine.exec("TRUNCATE brokerdesk.account_directory");
    await rememberAccountNumbers(
      f.db.engine,
      [...numbers].map(([account_id, account_number]) => ({ account_id, account_number })),
    );
  });

  const deps = () => ({ engine: f.db.engine, client: f.client });
  const calls = async () => (await f.api.call("GET", "/sandbox/calls")).body.data as Record<string, number>;
  const since = async (before: Record<string, number>) => {
    const now = await calls();
    return (key: string) => (now[key] ?? 0) - (before[key] ?? 0);
  };
  const place = async (account: string) => {
    const order = usStockOrder({ quantity: "3", limit_price: "10.00" });
    const r = await f.api.call("POST", "/broker/orders/place", { body: { account_id: account, new_orders: [order] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const placed = (r.body.data ?? r.body) as { order_id?: string } | { order_id?: string }[];
    const orderId = Array.isArray(placed) ? placed[0]?.order_id : placed.order_id;
    return { coid: order.client_order_id as string, orderId: String(orderId) };
  };
  const bookRow = async (account: string, coid: string) =>
    (
      await f.db.engine.query<{ id: string; status: string; quantity: string | null }>(
        "SELECT id::text, status, quantity::text FROM brokerdesk.orders WHERE account_id = $1 AND client_order_id = $2",
        [account, coid],
      )
    ).rows[0];

  it("an order the books lack is read by its client order id for the account's number: one detail call, then in the books", async () => {
    const account = ACCOUNTS.margin;
    const { coid } = await place(account);
    expect(await bookRow(account, coid)).toBeUndefined();
    const before = await calls();
    const found = await lookUpOrder(deps(), { account: numbers.get(account)!, id: coid });
    const row = await bookRow(account, coid);
    expect(row).toMatchObject({ status: "SUBMITTED", quantity: "3" });
    expect(found).toEqual({ id: row.id, accountId: account, accountNumber: numbers.get(account), source: "upstream" });
    const n = await since(before);
    expect([n(DETAIL), n(OPEN_LIST), n(HISTORY)]).toEqual([1, 0, 0]);

    // Asked again: the books answer, no upstream call.
    const again = await calls();
    expect(await lookUpOrder(deps(), { account: numbers.get(account)!, id: coid })).toMatchObject({ id: row.id, source: "books" });
    const m = await since(again);
    expect([m(DETAIL), m(OPEN_LIST), m(HISTORY)]).toEqual([0, 0, 0]);
  });

  it("by the upstream's order id, a cancelled order is found in the account's history and enters the books cancelled", async () => {
    const account = ACCOUNTS.cash;
    const { coid, orderId } = await place(account);
    const cancelled = await f.api.call("POST", "/broker/orders/cancel", { body: { account_id: account, client_order_id: coid } });
    expect(cancelled.status).toBe(200);
    const before = await calls();
    const found = await lookUpOrder(deps(), { account: numbers.get(account)!, id: orderId });
    expect(found.source).toBe("upstream");
    expect(await bookRow(account, coid)).toMatchObject({ id: found.id, status: "CANCELLED" });
    const n = await since(before);
    expect(n(OPEN_LIST)).toBe(1);
    expect(n(HISTORY)).toBeGreaterThanOrEqual(1);
  });

  it("an account the directory does not know yet is found through the upstream's account listing", async () => {
    const account = ACCOUNTS.optionsLv1;
    await f.db.engine.exec("TRUNCATE brokerdesk.account_directory");
    const { coid } = await place(account);
    const found = await lookUpOrder(deps(), { account: numbers.get(account)!, id: coid });
    expect(found).toMatchObject({ accountId: account, accountNumber: numbers.get(account), source: "upstream" });
  });

  it("an order the upstream does not have for that account, and an account it does not have, are said in words", async () => {
    const account = ACCOUNTS.marginCn;
    const other = await place(ACCOUNTS.margin);
    // Another account's order is not this account's.
    const wrong = lookUpOrder(deps(), { account: numbers.get(account)!, id: other.coid });
    await expect(wrong).rejects.toBeInstanceOf(NotFoundError);
    await expect(wrong).rejects.toThrow(`No order ${other.coid} for account ${numbers.get(account)}`);
    expect(await bookRow(account, other.coid)).toBeUndefined();
    await expect(lookUpOrder(deps(), { account: "NOPE0000", id: other.coid })).rejects.toThrow("No account NOPE0000 at the upstream");
  });
});
