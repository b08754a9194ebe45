import { expect, test } from "./fixtures";
import { sandboxCall } from "./accounts-helpers";
import { shots, storageFor, deskOrderId } from "./helpers";
import { usStockOrder } from "../tests/helpers/orders";
import { formatMoney, formatQuantity, mulDecimal } from "../lib/money";

/**
 * Around the instrument page (issue 26): a blotter symbol opens its page; the header search finds a symbol by name;
 * each reference tab shows what the sandbox answers; an ETF shows fund data instead of statements; the desk's own
 * view lists an order placed in the symbol, its account by number. Screenshots at 1280 and 1920 px.
 */
const US_CORE = "2026-11-17T15:00:00Z";
const run = Date.now().toString(36);
const coid = `e2eins${run}`;
let account = "";
let accountNumber = "";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's raw answers, read field by field
type Raw = any;
function ok<T = Raw>(res: { status: number; body: T }): T {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
const md = (path: string, symbol: string) => ok(sandboxCall("GET", path, { query: { symbol, category: "US_STOCK" } })) as Raw;
/** A resource-path answer: the object itself, or the array under `data`. */
const unwrap = (b: Raw) => (b && !Array.isArray(b) && Object.keys(b).length === 1 && "data" in b ? b.data : b);

test.use({ storageState: storageFor("compliance") });

test.beforeAll(() => {
  const list = ok(sandboxCall("GET", "/broker/accounts/virtual-accounts/list", { query: { page_size: "50" } }));
  const a = list.data.find(
    (x: { account_type?: string; account_status?: string }) => x.account_type === "MARGIN" && x.account_status === "ACTIVE",
  );
  account = a.account_id;
  accountNumber = a.account_number;
  ok(sandboxCall("POST", "/sandbox/market/clock", { body: { now: US_CORE } }));
  ok(sandboxCall("POST", "/sandbox/market/price", { body: { symbol: "AAPL", price: "100.00" } }));
  // A resting order, then a replace at the sandbox so that an event tells the desk.
  ok(
    sandboxCall("POST", "/broker/orders/place", {
      body: { account_id: account, new_orders: [usStockOrder({ client_order_id: coid, quantity: "10", limit_price: "50.00" })] },
    }),
  );
  ok(
    sandboxCall("POST", "/broker/orders/replace", {
      body: { account_id: account, modify_orders: [{ combo_type: "NORMAL", client_order_id: coid, limit_price: "50.10" }] },
    }),
  );
});
test.afterAll(() => {
  sandboxCall("POST", "/sandbox/market/clock", { body: { now: null } });
});

test("a blotter symbol opens its instrument page; the desk view lists the order with its account by number", async ({ page }) => {
  const id = await deskOrderId(page, account, coid);
  await page.goto(`/orders?account=${account}&symbol=AAPL`);
  const row = page.getByTestId(`order-row-${coid}`);
  await row.getByRole("link", { name: "AAPL" }).click();
  await expect(page).toHaveURL(/\/instruments\/US\/AAPL$/);
  await expect(page.getByTestId("instrument-tabs").getByRole("tablist")).toBeVisible();

  const order = page.getByTestId("desk-order").filter({ has: page.locator(`a[href="/orders/${id}"]`) });
  await expect(order).toBeVisible();
  await expect(order.getByRole("link", { name: accountNumber })).toHaveAttribute("href", `/accounts/${account}`);
  await expect(order.getByRole("cell").nth(7)).toHaveText("50.10 USD");
  await shots(page, "instrument-tabs", "aapl-profile");
  await order.getByRole("link", { name: /UTC/ }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${id}$`));
});

test("the header search finds a symbol by its name and opens its page with the keyboard", async ({ page }) => {
  await page.goto("/");
  const box = page.locator("input[role=combobox][data-ready]");
  await box.fill("apple");
  await expect(page.getByRole("option").first()).toContainText("AAPL");
  await expect(page.getByRole("option").first()).toContainText("Apple");
  await box.press("Escape");
  await expect(page.getByRole("listbox")).toHaveCount(0);
  await box.fill("invesco");
  await expect(page.getByRole("option", { name: /QQQ/ })).toBeVisible();
  await box.press("ArrowDown");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/instruments\/US\/QQQ$/);
});

test("each tab shows the sandbox's data, the chosen tab in the URL and arrow keys moving between tabs", async ({ page }) => {
  const profile = unwrap(md("/market-data/fundamentals/company-profiles/get", "AAPL"));
  const rating = unwrap(md("/market-data/fundamentals/analysis/ratings/get", "AAPL"));
  const target = unwrap(md("/market-data/fundamentals/analysis/target-prices/get", "AAPL"));
  const earnings = unwrap(md("/market-data/fundamentals/earnings-calendars/list", "AAPL"));
  const income = unwrap(md("/market-data/fundamentals/income-statements/get", "AAPL"));
  const master = ok(sandboxCall("GET", "/broker/instruments/stocks/profiles/list", { query: { symbols: "AAPL", category: "US_STOCK" } }));
  const aapl = (Array.isArray(master) ? master : master.data)[0];
  const actions = unwrap(
    ok(sandboxCall("GET", "/market-data/instruments/corporate-actions/list", { query: { instrument_ids: aapl.instrument_id } })),
  );
  const locate = ok(sandboxCall("GET", "/broker/instruments/stock-locates/get", { query: { symbol: "AAPL", market: "US" } }));

  await page.goto("/instruments/US/AAPL");
  const panel = page.getByTestId("instrument-tabs").getByRole("tabpanel");
  await expect(panel.locator('[data-field="name"] dd')).toHaveText(profile.name);

  await page.getByTestId("instrument-tabs").getByRole("tab", { name: "Profile" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByTestId("instrument-tabs").getByRole("tab", { name: "Analyst rating & target" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(page.getByTestId("instrument-tabs").getByRole("tab", { name: "Analyst rating & target" })).toBeFocused();
  await expect(page).toHaveURL(/\?tab=analyst$/);
  await expect(panel.locator('[data-field="rating"] dd')).toHaveText(rating.rating);
  await expect(panel.locator('[data-field="target_mean"] dd')).toHaveText(formatMoney(String(target.target_mean), "USD"));

  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/\?tab=calendars$/);
  await expect(page.getByTestId("calendars-section-0").locator("tbody tr")).toHaveCount(earnings.length);
  await shots(page, "instrument-tabs", "aapl-calendars");

  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/\?tab=statements$/);
  const revenue = page.getByTestId("statements-section-0").getByRole("row", { name: /Total revenue/ });
  await expect(revenue.getByRole("cell").nth(1)).toHaveText(formatMoney(String(income[0].total_revenue), "USD"));
  await shots(page, "instrument-tabs", "aapl-statements");

  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/\?tab=corporate-actions$/);
  const events = page.getByTestId("corporate-actions-section-0");
  if (actions.length) await expect(events.getByRole("cell", { name: actions[0].event_id, exact: true })).toBeVisible();
  else await expect(events).toContainText("No corporate action");

  await page.keyboard.press("ArrowRight");
  await expect(page).toHaveURL(/\?tab=margin$/);
  const initial = page.getByTestId("margin-section-0").getByRole("row", { name: /Initial/ });
  await expect(initial.getByRole("cell").nth(1)).toHaveText(
    `${formatMoney(mulDecimal(String(aapl.margin_requirement_long), "100"), undefined, 2)} %`,
  );

  await page.keyboard.press("End");
  await expect(page).toHaveURL(/\?tab=shortability$/);
  const loc = Array.isArray(locate) ? locate[0] : (locate.data ?? locate);
  await expect(page.getByTestId("shortability-section-1").locator('[data-field="available_num"] dd')).toHaveText(
    formatQuantity(String(loc.available_num)),
  );

  await shots(page, "instrument-tabs", "aapl-shortability");
  await page.getByTestId("instrument-tabs").getByRole("tab", { name: "Corporate actions" }).click();
  await expect(page).toHaveURL(/\?tab=corporate-actions$/);
  await shots(page, "instrument-tabs", "aapl-corporate-actions");
  await page.getByTestId("instrument-tabs").getByRole("tab", { name: "Shortability & locate" }).click();

  // The tab survives a reload.
  await page.reload();
  await expect(page.getByTestId("instrument-tabs").getByRole("tab", { name: "Shortability & locate" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
});

test("an ETF shows fund data instead of statements", async ({ page }) => {
  const brief = unwrap(md("/market-data/fundamentals/fund-brief/get", "SPY"));
  await page.goto("/instruments/US/SPY?tab=fund");
  await expect(page.getByTestId("instrument-tabs").getByRole("tab", { name: "Fund data" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("instrument-tabs").getByRole("tab", { name: "Financial statements" })).toHaveCount(0);
  await expect(page.getByTestId("fund-section-0").locator('[data-field="name"] dd')).toHaveText(brief.name);
  await shots(page, "instrument-tabs", "spy-fund");
});
