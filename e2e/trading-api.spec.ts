import { expect, test } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { storageFor } from "./helpers";
import { usStockOrder } from "../tests/helpers/orders";

/**
 * The Trading API (issue 15): an order an account holder places with its own credentials is the same order the
 * Broker API lists for that virtual account, and it reaches the desk's blotter through the event stream.
 */
const US_CORE = "2026-11-17T15:00:00Z";

const call = sandboxCall;

test.use({ storageState: storageFor("support") });

test("an order placed through the Trading API is in the Broker API's order list and in the desk's blotter", async ({ page }) => {
  const accounts = call("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } });
  expect(accounts.status).toBe(200);
  const account = accounts.body.data.find(
    (a: { account_type?: string; account_status?: string }) => a.account_type === "MARGIN" && a.account_status === "ACTIVE",
  ).account_id;
  expect(call("POST", "/sandbox/market/clock", { body: { now: US_CORE } }).status).toBe(200);
  expect(call("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "100.00" } }).status).toBe(200);

  const issued = call("POST", "/sandbox/trading-credentials", { body: { account_id: account } });
  expect(issued.status).toBe(200);
  const holder = { appKey: issued.body.app_key as string, appSecret: issued.body.app_secret as string };

  const id = `ta${Date.now().toString(36)}`;
  const placed = call(
    "POST",
    "/openapi/trade/order/place",
    {
      body: {
        account_id: account,
        new_orders: [usStockOrder({ client_order_id: id, order_type: "MARKET", limit_price: undefined })],
      },
    },
    holder,
  );
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);

  // The Broker API sees the same order for the virtual account.
  const seen = call("GET", "/broker/orders/get", { query: { account_id: account, client_order_id: id } });
  expect(seen.status).toBe(200);
  expect(seen.body.orders.map((o: { client_order_id: string }) => o.client_order_id)).toContain(id);

  // The desk's blotter has it, filled, from the events its execution produced.
  await page.goto(`/orders?account=${account}`);
  const row = page.getByTestId(`order-row-${id}`);
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row).toContainText("AAPL");
  await expect(row).toContainText(/Filled/i);
});
