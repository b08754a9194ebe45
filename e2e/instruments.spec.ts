import { expect, test, type Page } from "./fixtures";
import { sandboxCall, sandboxCalls } from "./accounts-helpers";
import { shots, storageFor } from "./helpers";
import { usStockOrder } from "../tests/helpers/orders";

/**
 * The instrument page: reached from an order's symbol, its quote is the sandbox's snapshot, its chart is drawn and
 * re-read on a timespan switch, and a price pinned at the sandbox reaches the open page through the shared poller
 * and the tab's live channel. The sandbox's market timer is paused for the file, so a pinned price stays pinned.
 */
const US_CORE = "2026-11-17T15:00:00Z";
const run = Date.now().toString(36);
const orderId = `e2einst${run}`;
let account = "";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- sandbox JSON read loosely
function ok(res: { status: number; body: any }) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const snapshot = () =>
  ok(sandboxCall("GET", "/market-data/stocks/snapshots/list", { query: { symbols: "AAPL", category: "US_STOCK" } })).data[0] as {
    price: string;
    bid: string;
    ask: string;
  };

test.beforeAll(() => {
  const res = ok(sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } }));
  account = res.data.find(
    (x: { account_type?: string; account_status?: string }) => x.account_type === "MARGIN" && x.account_status === "ACTIVE",
  ).account_id;
  for (const r of sandboxCalls([
    { method: "POST", path: "/sandbox/market/pause", body: { paused: true } },
    { method: "POST", path: "/sandbox/market/clock", body: { now: US_CORE } },
    { method: "POST", path: "/sandbox/market/price", body: { symbol: "AAPL", price: "100.00" } },
    // A resting order, replaced once at the sandbox so that an event tells the desk of it.
    {
      method: "POST",
      path: "/broker/orders/place",
      body: { account_id: account, new_orders: [usStockOrder({ client_order_id: orderId, quantity: "5", limit_price: "50.00" })] },
    },
    {
      method: "POST",
      path: "/broker/orders/replace",
      body: { account_id: account, modify_orders: [{ combo_type: "NORMAL", client_order_id: orderId, limit_price: "50.10" }] },
    },
  ]))
    ok(r);
});
test.afterAll(() => {
  sandboxCalls([
    { method: "POST", path: "/sandbox/market/pause", body: { paused: false } },
    { method: "POST", path: "/sandbox/market/clock", body: { now: null } },
  ]);
});

/**
 * Pins the sandbox's market clock at 15:55 New York on a trading day ahead (the tape's times never run backwards):
 * the first weekday after today whose US session the sandbox says is open then.
 */
function pinClosingAuction() {
  const ny = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  const today = new Date();
  for (let day = 1; day < 30; day++) {
    for (const hour of [19, 20]) {
      const at = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + day, hour, 55));
      if (ny.format(at) !== "15:55") continue;
      if (ok(sandboxCall("POST", "/sandbox/market/clock", { body: { now: at.toISOString() } })).sessions.US === "CORE") return;
    }
  }
  throw new Error("no trading day within 30 days");
}

/** The desk's id of the order once the consumer has recorded it. */
async function deskOrderId(page: Page): Promise<string> {
  let id = "";
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/orders?account=${account}&symbol=AAPL&size=500`);
        const rows = ((await res.json()) as { rows: { id: string; clientOrderId: string }[] }).rows;
        id = rows.find((r) => r.clientOrderId === orderId)?.id ?? "";
        return id;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return id;
}

test.describe.serial("as support", () => {
  test.use({ storageState: storageFor("support") });

  test("an order's symbol opens the instrument page: the sandbox's quote, a drawn chart, timespans re-read", async ({ page }) => {
    await page.goto(`/orders/${await deskOrderId(page)}`);
    await page.getByRole("link", { name: "AAPL", exact: true }).first().click();
    await expect(page).toHaveURL(/\/instruments\/US\/AAPL$/);

    const s = snapshot();
    await expect(page.getByTestId("quote-last")).toHaveText(s.price);
    await expect(page.getByTestId("quote-bid")).toContainText(s.bid);
    await expect(page.getByTestId("quote-ask")).toContainText(s.ask);
    await expect(page.getByTestId("quote-session")).toHaveText("Regular session");
    // The instrument master's record names it beside the quote.
    await expect(page.getByText("Apple Inc. · XNAS · Prices in USD")).toBeVisible();

    const chart = page.getByTestId("price-chart");
    await expect(chart).toHaveAttribute("data-ready", "true");
    await expect(chart.locator("canvas").first()).toBeVisible();
    expect(Number(await chart.getAttribute("data-bars"))).toBeGreaterThan(50);
    // The library's attribution stays, as its licence asks.
    await expect(chart.locator('a[href*="tradingview.com"]')).toHaveCount(1);
    await shots(page, "instruments", "aapl-m5");

    const reread = page.waitForResponse((r) => r.url().includes("/api/market/US/AAPL/bars?timespan=M15") && r.ok());
    await page.getByRole("group", { name: "Timespan" }).getByRole("button", { name: "M15" }).click();
    await reread;
    await expect(chart).toHaveAttribute("data-timespan", "M15");
    await expect(page.getByRole("button", { name: "M15" })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("group", { name: "Timespan" }).getByRole("button", { name: "D", exact: true }).click();
    await expect(chart).toHaveAttribute("data-timespan", "D");
    await shots(page, "instruments", "aapl-day");
  });

  test("a price pinned at the sandbox reaches the open page's header while it is open", async ({ page }) => {
    await page.goto("/instruments/US/AAPL");
    await expect(page.getByTestId("quote-last")).toHaveText(snapshot().price);
    // The server's first quote is in the page before its live subscription (after hydration): a first pin, awaited,
    // says the page follows the market; the second one's time is written down (one poll, 1 s, and the delivery).
    ok(sandboxCall("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "123.40" } }));
    await expect(page.getByTestId("quote-last")).toHaveText("123.40");
    const pinned = Date.now();
    ok(sandboxCall("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "123.45" } }));
    await expect(page.getByTestId("quote-last")).toHaveText("123.45");
    test.info().annotations.push({ type: "pinned price to the page", description: `${Date.now() - pinned} ms` });
    await expect(page.getByTestId("quote-bid")).toContainText(snapshot().bid);
  });

  test("during the closing auction the page shows the imbalance beside depth, tape and footprint", async ({ page }) => {
    // The closing auction of a trading day ahead, and a trade then.
    pinClosingAuction();
    ok(sandboxCall("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "124.00" } }));
    await page.goto("/instruments/US/AAPL");
    await expect(page.getByTestId("noii")).toContainText("Closing");
    await expect(page.getByTestId("depth-ladder").getByRole("row")).toHaveCount(21);
    await expect(page.getByTestId("tick-tape")).toContainText("124.00");
    await expect(page.getByTestId("footprint")).toContainText("124.00");
    await shots(page, "instruments", "aapl-auction");
    ok(sandboxCall("POST", "/sandbox/market/clock", { body: { now: US_CORE } }));
  });

  test("an unknown symbol is a clear not-found", async ({ page }) => {
    const res = await page.goto("/instruments/US/NOPEX");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Instrument not found" })).toBeVisible();
  });
});

test.describe("as operations", () => {
  test.use({ storageState: storageFor("operations") });

  test("the order ticket quotes its symbol live from the same poller", async ({ page }) => {
    ok(sandboxCall("POST", "/sandbox/market/price", { body: { symbol: "MSFT", price: "321.00" } }));
    await page.goto(`/orders/new?account=${encodeURIComponent(account)}`);
    await page.locator("#f-symbol").fill("MSFT");
    await expect(page.getByTestId("ticket-quote-last")).toHaveText("321.00");
    const s = ok(sandboxCall("GET", "/market-data/stocks/snapshots/list", { query: { symbols: "MSFT", category: "US_STOCK" } })).data[0];
    await expect(page.getByTestId("ticket-quote-bid")).toContainText(s.bid);
    await expect(page.getByTestId("ticket-quote-ask")).toContainText(s.ask);
  });
});
